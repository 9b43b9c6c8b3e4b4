import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Config } from '../../config.ts';

/**
 * The account page's mail (address checks, password resets): through SMTP_URL when it is set; otherwise each message
 * is written whole (RFC 5322, as it would have been sent) into MAIL_OUTBOX_DIR, mode 0600
 * because it holds a single-use link, and handed to onOutbox (npm start prints its link).
 */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The one thing the mail asks the reader to open; printed by npm start for outbox mail. */
  link: { label: string; url: string };
}

export interface Mailer {
  readonly mode: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
  close(): void;
}

export type OutboxListener = (mail: Mail, file: string) => void;

/** An SMTP server that does not answer must not hold a send (and the shutdown waiting for it) for minutes. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailer(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'MAIL_OUTBOX_DIR'>,
  options: { onOutbox?: OutboxListener } = {},
): Mailer {
  const message = (mail: Mail) => ({ from: config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
  if (config.SMTP_URL !== undefined) {
    const transport = createTransport({ url: config.SMTP_URL, ...SMTP_TIMEOUTS });
    return {
      mode: 'smtp',
      async send(mail) {
        await transport.sendMail(message(mail));
      },
      close: () => transport.close(),
    };
  }
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    mode: 'outbox',
    async send(mail) {
      const info = await transport.sendMail(message(mail));
      mkdirSync(config.MAIL_OUTBOX_DIR, { recursive: true, mode: 0o700 });
      const file = join(config.MAIL_OUTBOX_DIR, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      options.onOutbox?.(mail, file);
    },
    close: () => transport.close(),
  };
}
