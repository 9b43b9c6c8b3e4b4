import { issueToken } from '../../control/accounts/email-tokens.ts';
import type { Sql } from '../../control/db/sql.ts';
import type { User } from '../../control/accounts/users.ts';
import type { Logger } from '../../logger.ts';
import type { Mail, Mailer } from './mailer.ts';
import { resetMail, verifyMail } from './messages.ts';

/** The mailed links: a fresh single-use token each (the previous unused one of its kind stops working). */
export async function verificationMail(sql: Sql, publicUrl: string, user: Pick<User, 'id' | 'email'>, now: Date): Promise<Mail> {
  const token = await issueToken(sql, user.id, 'verify', now);
  return verifyMail(user.email, `${publicUrl}/account/verify?token=${token}`);
}

export async function passwordResetMail(sql: Sql, publicUrl: string, user: Pick<User, 'id' | 'email'>, now: Date): Promise<Mail> {
  const token = await issueToken(sql, user.id, 'reset', now);
  return resetMail(user.email, `${publicUrl}/account/reset?token=${token}`);
}

/**
 * Sends mail after the page has answered, so that how long an SMTP server takes cannot tell a
 * known address from an unknown one; a failure is logged (never the link). drain() waits for
 * what is still being sent, at shutdown.
 */
export interface Postman {
  post(mail: Mail): void;
  drain(): Promise<void>;
}

export function createPostman(mailer: Mailer, logger: Logger): Postman {
  const pending = new Set<Promise<void>>();
  return {
    post(mail) {
      const sending = mailer
        .send(mail)
        .catch((err: unknown) =>
          logger.error({ err: err instanceof Error ? err.message : String(err), subject: mail.subject }, 'mail not sent'),
        )
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    async drain() {
      await Promise.all([...pending]);
    },
  };
}
