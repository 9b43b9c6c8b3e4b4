import { createHmac } from 'node:crypto';
import { type Config, ConfigError } from '../config.ts';

/**
 * What the account page derives from the configuration once, at start-up. In production it
 * refuses to start without PUBLIC_URL (mailed links must not be built from a request's Host
 * header, which the client chooses) and SMTP_URL (an outbox on the server would swallow every
 * verification and reset mail).
 */
export interface SiteSettings {
  /** The origin mailed links start with, without a trailing slash. */
  publicUrl: string;
  /** Cookies are Secure outside development (which serves plain http on this machine); then they also take the __Host- prefix. */
  secureCookies: boolean;
  sessionCookie: string;
  csrfCookie: string;
  /** Signs the CSRF cookie; derived from KEY_HASH_SECRET so there is no second secret to keep. */
  cookieSecret: string;
  /** Keys the HMAC that binds a CSRF token to its session (session.ts csrfBinding); derived likewise. */
  csrfKey: string;
}

export function siteSettings(
  config: Pick<Config, 'NODE_ENV' | 'PUBLIC_URL' | 'PUBLIC_URL_SET' | 'SMTP_URL' | 'KEY_HASH_SECRET'>,
): SiteSettings {
  if (config.NODE_ENV === 'production') {
    if (!config.PUBLIC_URL_SET)
      throw new ConfigError('PUBLIC_URL: required when NODE_ENV=production (the account page mails links that start with it)');
    if (config.SMTP_URL === undefined)
      throw new ConfigError('SMTP_URL: required when NODE_ENV=production (the account page mails verification and reset links)');
  }
  const secure = config.NODE_ENV !== 'development';
  // __Host- cookies must be Secure, have Path=/ and no Domain: no sibling subdomain can set or shadow them.
  const prefix = secure ? '__Host-' : '';
  return {
    publicUrl: config.PUBLIC_URL,
    secureCookies: secure,
    sessionCookie: `${prefix}taxcert-session`,
    csrfCookie: `${prefix}taxcert-csrf`,
    cookieSecret: createHmac('sha256', config.KEY_HASH_SECRET).update('account page cookies').digest('base64url'),
    csrfKey: createHmac('sha256', config.KEY_HASH_SECRET).update('account page csrf tokens').digest('base64url'),
  };
}
