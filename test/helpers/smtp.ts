import { SMTPServer } from 'smtp-server';
import { decodeMail } from '../../scripts/lib/mail-text.ts';

export { decodeMail };

/**
 * A real SMTP server on a free port for the account page's mail (verification, reset): it accepts
 * every message (no auth, no STARTTLS, as nodemailer's smtp:// needs) and keeps it whole. Tests
 * read the decoded text body and its link as a mail client would.
 */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

export interface SmtpInbox {
  url: string;
  messages: ReceivedMail[];
  /** Resolves with the first message to `to` (after `after` messages to anyone) that matches; rejects after timeoutMs. */
  waitFor(to: string, options?: { subject?: RegExp; after?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        raw += chunk;
      });
      stream.on('end', () => {
        messages.push({ ...decodeMail(raw), to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    async waitFor(to, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 15_000);
      for (;;) {
        const found = messages
          .slice(options.after ?? 0)
          .find((m) => m.to.includes(to.toLowerCase()) && (options.subject === undefined || options.subject.test(m.subject)));
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no mail to ${to} within the time; got: ${messages.map((m) => `${m.to} ${m.subject}`).join(', ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first http(s) link of a mail's text. */
export function linkIn(mail: ReceivedMail): string {
  const m = /https?:\/\/\S+/.exec(mail.text);
  if (!m) throw new Error(`no link in the mail "${mail.subject}"`);
  return m[0];
}
