import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../services/config.ts';
import { siteSettings } from '../../../../services/web/settings.ts';

const SECRET = 'x'.repeat(40);
const config = (env: Record<string, string>) =>
  loadConfig({ KEY_HASH_SECRET: SECRET, WEBHOOK_SECRET_KEY: 'w'.repeat(40), DATABASE_PATH: '/tmp/never-created/x.db', ...env });

describe('account page settings', () => {
  it('in development: plain cookie names without Secure, links to the local server, test-mode billing', () => {
    const c = config({ NODE_ENV: 'development', PORT: '4000' });
    expect(c.PUBLIC_URL).toBe('http://127.0.0.1:4000');
    expect(c.BILLING_PROVIDER).toBe('test-mode');
    expect(c.MAIL_OUTBOX_DIR).toBe('/tmp/never-created/outbox');
    expect(siteSettings(c)).toMatchObject({
      publicUrl: 'http://127.0.0.1:4000',
      secureCookies: false,
      sessionCookie: 'taxcert-session',
      csrfCookie: 'taxcert-csrf',
    });
  });

  it('outside development: Secure __Host- cookies', () => {
    expect(siteSettings(config({ NODE_ENV: 'test' }))).toMatchObject({
      secureCookies: true,
      sessionCookie: '__Host-taxcert-session',
      csrfCookie: '__Host-taxcert-csrf',
    });
  });

  it('in production: PUBLIC_URL and SMTP_URL are required, and test-mode billing is refused', () => {
    const production = { NODE_ENV: 'production' };
    expect(() => siteSettings(config({ ...production, SMTP_URL: 'smtp://mail:25' }))).toThrow(ConfigError);
    expect(() => siteSettings(config({ ...production, SMTP_URL: 'smtp://mail:25' }))).toThrow(/^PUBLIC_URL: required/);
    expect(() => siteSettings(config({ ...production, PUBLIC_URL: 'https://api.example.com' }))).toThrow(/^SMTP_URL: required/);
    const ok = config({ ...production, PUBLIC_URL: 'https://api.example.com/', SMTP_URL: 'smtps://u:p@mail.example.com' });
    expect(ok.BILLING_PROVIDER).toBe('none');
    expect(siteSettings(ok).publicUrl).toBe('https://api.example.com');
    expect(() => config({ ...production, BILLING_PROVIDER: 'test-mode' })).toThrow(/^BILLING_PROVIDER: test-mode gives plans/);
  });

  it('the cookie-signing secret derives from KEY_HASH_SECRET and is not it', () => {
    const a = siteSettings(config({ NODE_ENV: 'test' })).cookieSecret;
    expect(a).not.toContain(SECRET);
    expect(a).toBe(siteSettings(config({ NODE_ENV: 'test' })).cookieSecret);
    expect(siteSettings(config({ NODE_ENV: 'test', KEY_HASH_SECRET: 'y'.repeat(40) })).cookieSecret).not.toBe(a);
  });
});
