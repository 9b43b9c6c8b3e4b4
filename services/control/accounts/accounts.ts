import type { KeyEnv } from '../billing/api-keys.ts';
import { type Client, createClient } from '../billing/clients.ts';
import type { Account } from '../billing/ledger.ts';
import { effectivePlan, getPlan, type Plan } from '../billing/plans.ts';
import type { Sql } from '../db/sql.ts';
import { createUser, type User } from './users.ts';

/**
 * An account as the account page sees it: a client (workspace) and the people who sign in to
 * it. Sign-up makes both at once, the client exactly as an operator's `taxcert clients create
 * --plan free_trial` does (the ledger grants its 500 trial credits, dated at signup, on its first
 * touch; spec 8.3).
 */
export async function createTrialAccount(
  sql: Sql,
  input: { organisation: string; email: string; passwordHash: string; now: Date },
): Promise<{ client: Client; user: User }> {
  return sql.transaction(async (tx) => {
    const client = await createClient(tx, { name: input.organisation, plan: 'free_trial', createdAt: input.now });
    const user = await createUser(tx, { clientId: client.id, email: input.email, passwordHash: input.passwordHash, now: input.now });
    return { client, user };
  });
}

/**
 * The client as the ledger charges it, for one key environment: its plan with contract numbers
 * applied, as authentication builds it for a request (services/api/access/authenticate.ts).
 */
export async function clientAccount(sql: Sql, client: Client, env: KeyEnv): Promise<{ plan: Plan; account: Account }> {
  const plan = effectivePlan(await getPlan(sql, client.plan), client);
  return { plan, account: { clientId: client.id, plan, subscription: client.subscription, createdAt: client.createdAt, env } };
}
