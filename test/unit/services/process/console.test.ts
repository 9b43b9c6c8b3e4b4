import { describe, expect, it } from 'vitest';
import { bannerLines, isQuietConsole, outboxLine, requestLine } from '../../../../services/process/console.ts';
import { redactUrl } from '../../../../services/logger.ts';

// npm start keeps a terminal readable: it once printed ~1,500 lines there (22 per ingested file, 12
// per /healthz request).

describe('npm start on a console', () => {
  it('is quiet only on a terminal with no LOG_LEVEL, outside production', () => {
    expect(isQuietConsole({ isTTY: true, logLevelSet: false, nodeEnv: 'development' })).toBe(true);
    expect(isQuietConsole({ isTTY: false, logLevelSet: false, nodeEnv: 'development' })).toBe(false);
    expect(isQuietConsole({ isTTY: true, logLevelSet: true, nodeEnv: 'development' })).toBe(false);
    expect(isQuietConsole({ isTTY: true, logLevelSet: false, nodeEnv: 'production' })).toBe(false);
  });

  it('prints a request in one line', () => {
    expect(requestLine({ at: new Date('2026-11-23T14:03:07.123Z'), method: 'GET', url: '/healthz', statusCode: 200, ms: 2.4 })).toBe(
      '14:03:07 GET /healthz 200 2ms',
    );
  });

  it('shows the URL, and the demo key when there is one', () => {
    expect(bannerLines('http://127.0.0.1:3000')).toEqual([
      '',
      'Tax certificate data service: http://127.0.0.1:3000  (health: http://127.0.0.1:3000/healthz, docs: http://127.0.0.1:3000/docs)',
      'Ctrl-C stops everything.',
      '',
    ]);
    expect(bannerLines('http://x', 'txc_test_abc')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Demo API key: txc_test_abc /),
        '  curl -H "Authorization: Bearer txc_test_abc" "http://x/api/v1/certificates/search?county=miami-dade&limit=2"',
        // How to point a webhook at a local receiver.
        '  npx taxcert webhooks create --client cli_demo --url http://127.0.0.1:4000/webhooks',
      ]),
    );
  });

  // The terminal line once printed the URL as sent, key and all, while the JSON log masked it; and
  // `api%5Fkey`, which a query parser reads as api_key, passed both.
  it('masks a key sent in the query, however its name is spelled, as the JSON log does', () => {
    const at = new Date('2026-11-23T14:03:07Z');
    const line = (url: string) => requestLine({ at, method: 'GET', url, statusCode: 401, ms: 1 });
    expect(line('/api/v1/counties?api_key=txc_live_secret&limit=2')).toBe(
      '14:03:07 GET /api/v1/counties?api_key=[redacted]&limit=2 401 1ms',
    );
    expect(line('/api/v1/counties?limit=2&api%5Fkey=txc_live_secret')).toBe(
      '14:03:07 GET /api/v1/counties?limit=2&api%5Fkey=[redacted] 401 1ms',
    );
    for (const url of [
      '/x?api%5fkey=txc_live_secret',
      '/x?%61pi_key=txc_live_secret',
      '/x?API%5FKEY=txc_live_secret#frag',
      '/x?a=1&&api_key=txc_live_secret&api_key=txc_live_secret',
    ]) {
      expect(line(url)).not.toContain('txc_live_secret');
      expect(redactUrl(url)).not.toContain('txc_live_secret');
    }
    expect(redactUrl('/x?api_keys=1&xapi_key=2&q=api_key%3Dv')).toBe('/x?api_keys=1&xapi_key=2&q=api_key%3Dv');
    expect(redactUrl('/x?api%5Fkey=s#a?api_key=t')).toBe('/x?api%5Fkey=[redacted]#a?api_key=t');
  });

  // The account page's mailed links carry a single-use token in ?token=.
  it('masks the token of a mailed link, in the JSON log and on the terminal', () => {
    const token = 'GqJsTv7Cx8cDlOTJZdJwlrgXk-lU4ub9mdX6NR_IDz4';
    for (const url of [
      `/account/verify?token=${token}`,
      `/account/reset?token=${token}&x=1`,
      `/account/reset?TOKEN=${token}`,
      `/account/reset?%74oken=${token}`,
    ]) {
      expect(redactUrl(url), url).not.toContain(token);
      expect(requestLine({ at: new Date(), method: 'GET', url, statusCode: 200, ms: 1 })).not.toContain(token);
    }
    expect(redactUrl(`/account/verify?token=${token}`)).toBe('/account/verify?token=[redacted]');
    expect(redactUrl('/account/keys?tokens=1&notice=key-revoked')).toBe('/account/keys?tokens=1&notice=key-revoked');
  });

  it('prints the account page and the demo sign-in beside the demo key', () => {
    const lines = bannerLines('http://127.0.0.1:3000', 'txc_live_abc', { email: 'demo@example.com', password: 'Pw123' });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Demo API key: txc_live_abc /),
        'Account page: http://127.0.0.1:3000/account  (sign up, or sign in as the demo client)',
        'Demo sign-in: demo@example.com  password Pw123  (kept in the data folder; never in the logs)',
      ]),
    );
  });

  it('prints an outbox mail as its link, for confirming a sign-up without a mail server', () => {
    const line = outboxLine(
      {
        to: 'a@example.com',
        subject: 'Confirm your email address',
        text: '',
        link: { label: 'Confirm your email', url: 'http://127.0.0.1:3000/account/verify?token=abc' },
      },
      `${process.cwd()}/data/outbox/1.eml`,
    );
    expect(line).toBe(
      'Mail to a@example.com (not sent: no SMTP_URL; saved as data/outbox/1.eml). Confirm your email: http://127.0.0.1:3000/account/verify?token=abc',
    );
  });
});
