import type { Database } from 'better-sqlite3';
import type { KeyEnv } from './api-keys.ts';
import { type Client, createClient } from './clients.ts';
import type { Account } from './ledger.ts';
import { effectivePlan, getPlan, type Plan } from './plans.ts';
import { createUser, type User } from './users.ts';

/**
 * An account as the account page sees it: a client (workspace) and the people who sign in to
 * it. Sign-up makes both at once, the client exactly as an operator's `taxcert clients create
 * --plan free_trial` does (the ledger grants its 500 trial credits, dated at signup, on its first
 * touch; spec 8.3).
 */
export function createTrialAccount(
  db: Database,
  input: { organisation: string; email: string; passwordHash: string; now: Date },
): { client: Client; user: User } {
  return db
    .transaction(() => {
      const client = createClient(db, { name: input.organisation, plan: 'free_trial', createdAt: input.now });
      const user = createUser(db, { clientId: client.id, email: input.email, passwordHash: input.passwordHash, now: input.now });
      return { client, user };
    })
    .immediate();
}

/**
 * The client as the ledger charges it, for one key environment: its plan with contract numbers
 * applied, as authentication builds it for a request (services/api/access/authenticate.ts).
 */
export function clientAccount(db: Database, client: Client, env: KeyEnv): { plan: Plan; account: Account } {
  const plan = effectivePlan(getPlan(db, client.plan), client);
  return { plan, account: { clientId: client.id, plan, subscription: client.subscription, createdAt: client.createdAt, env } };
}
