import { consumeToken, peekToken, type TokenPurpose } from '../control/accounts/email-tokens.ts';
import { deleteUserSessions } from '../control/accounts/sessions.ts';
import { markEmailVerified, setPasswordHash } from '../control/accounts/users.ts';
import type { PageContext } from './context.ts';

/**
 * What both mailed links do with the password their holder types (a reset link's new password,
 * a confirmation link's first one): the link is looked up first, and only a live link's password
 * is hashed, so a made-up or spent token costs one indexed read and no argon2 work. The hash is
 * made before the link is spent (a failure leaves the link usable); spending it is the one
 * atomic UPDATE, so of two posts racing with one link only one sets its password. The password
 * replaces any the user had (whoever set it), the address is confirmed (the mail reached its
 * owner) and every session of the user ends. Returns the user, or null for a dead link.
 */
export async function setPasswordByLink(ctx: PageContext, purpose: TokenPurpose, token: string, password: string): Promise<string | null> {
  if ((await peekToken(ctx.sql, token, purpose, ctx.clock())) === null) return null;
  const passwordHash = await ctx.passwords.hash(password);
  const now = ctx.clock();
  return ctx.sql.transaction(async (tx) => {
    const userId = await consumeToken(tx, token, purpose, now);
    if (userId === null) return null;
    await setPasswordHash(tx, userId, passwordHash);
    await markEmailVerified(tx, userId, now);
    await deleteUserSessions(tx, userId);
    return userId;
  });
}
