import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { listClients } from '../../control/billing/clients.ts';
import { openControlPlane } from '../../control/control-plane.ts';
import { findUserByEmail, listUsers, type User } from '../../control/accounts/users.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { verificationMail } from '../../web/mail/links.ts';
import { createMailer } from '../../web/mail/mailer.ts';
import { siteSettings } from '../../web/settings.ts';
import { scriptFriendly } from '../control-args.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput } from '../output.ts';

/** What an operator may see of a user: never the password hash. */
const shown = (u: User) => ({
  id: u.id,
  client_id: u.clientId,
  email: u.email,
  email_verified_at: u.emailVerifiedAt,
  created_at: u.createdAt,
  last_sign_in_at: u.lastSignInAt,
});

/** The account page's accounts: clients with the people who sign in to them. */
export function accountsCommand(program: Command): void {
  const accounts = scriptFriendly(program.command('accounts')).description('account page: clients and their users, verification mail');
  accounts
    .command('list')
    .description('every client with its plan, status and users')
    .action(async (_opts: unknown, command: Command) => {
      const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
      try {
        const users = await listUsers(sql);
        const rows = (await listClients(sql)).map((c) => ({
          id: c.id,
          name: c.name,
          plan: c.plan,
          status: c.status,
          status_reason: c.statusReason,
          created_at: c.createdAt,
          users: users.filter((u) => u.clientId === c.id).map(shown),
        }));
        createOutput(wantsJson(command)).result({ accounts: rows }, (r) =>
          r.accounts.length === 0
            ? 'no accounts'
            : r.accounts
                .map((a) =>
                  [
                    `${a.id}  ${a.name}  plan ${a.plan}  ${a.status}${a.status_reason ? ` (${a.status_reason})` : ''}  since ${a.created_at}`,
                    ...a.users.map((u) => `  ${u.id}  ${u.email}  ${u.email_verified_at ? 'verified' : 'not verified'}`),
                  ].join('\n'),
                )
                .join('\n'),
        );
      } finally {
        await sql.close();
      }
    });
  accounts
    .command('users')
    .description("the people who sign in (all, or one client's)")
    .option('--client <id>', "only this client's users")
    .action(async (opts: { client?: string }, command: Command) => {
      const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
      try {
        const rows = (await listUsers(sql, opts.client)).map(shown);
        createOutput(wantsJson(command)).result({ users: rows }, (r) =>
          r.users.length === 0
            ? 'no users'
            : r.users
                .map(
                  (u) =>
                    `${u.id}  ${u.email}  client ${u.client_id}  ${u.email_verified_at ? `verified ${u.email_verified_at}` : 'not verified'}  last sign-in ${u.last_sign_in_at ?? 'never'}`,
                )
                .join('\n'),
        );
      } finally {
        await sql.close();
      }
    });
  accounts
    .command('resend-verification <email>')
    .description('mail a user a new confirmation link (the earlier one stops working)')
    .action(async (email: string, _opts: unknown, command: Command) => {
      const config = loadConfig();
      const settings = siteSettings(config);
      const sql = await openControlPlane(config, { registry: loadRegistry() });
      const mailer = createMailer(config);
      try {
        const user = await findUserByEmail(sql, email);
        if (!user) throw new CliError(`no user with the address ${email}`);
        if (user.emailVerifiedAt !== null) throw new CliError(`${user.email} is verified already (${user.emailVerifiedAt})`);
        // The link is in the mail only: this command prints where the mail went, never the link.
        await mailer.send(await verificationMail(sql, settings.publicUrl, user, new Date()));
        createOutput(wantsJson(command)).result(
          {
            user_id: user.id,
            email: user.email,
            sent_by: mailer.mode,
            ...(mailer.mode === 'outbox' ? { outbox: config.MAIL_OUTBOX_DIR } : {}),
          },
          (r) => (r.sent_by === 'smtp' ? `sent to ${r.email}` : `written for ${r.email} to the outbox ${r.outbox} (no SMTP_URL)`),
        );
      } finally {
        mailer.close();
        await sql.close();
      }
    });
}
