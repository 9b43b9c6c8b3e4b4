import { randomBytes } from 'node:crypto';
import type { PlanCode } from './plans.ts';
import type { Sql } from '../db/sql.ts';

/** Clients (workspaces): the owner of keys, of one credit bucket and of one per-minute window. */

export const CLIENT_STATUSES = ['active', 'suspended', 'closed'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];
export const SUBSCRIPTION_STATUSES = ['active', 'past_due'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface Client {
  id: string;
  name: string;
  plan: PlanCode;
  status: ClientStatus;
  subscription: SubscriptionStatus;
  /** Contract overrides of the plan's numbers (Enterprise); null = the plan's. */
  monthlyCredits: number | null;
  rpm: number | null;
  createdAt: string;
  /** Why an operator suspended or closed the client, shown to its users; null when active. */
  statusReason: string | null;
}

export interface ClientRow {
  id: string;
  name: string;
  plan: string;
  status: string;
  subscription: string;
  monthly_credits: number | null;
  rpm: number | null;
  created_at: string;
  status_reason: string | null;
}

export function mapClientRow(row: ClientRow): Client {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as PlanCode,
    status: row.status as ClientStatus,
    subscription: row.subscription as SubscriptionStatus,
    monthlyCredits: row.monthly_credits,
    rpm: row.rpm,
    createdAt: row.created_at,
    statusReason: row.status_reason ?? null,
  };
}

export function newClientId(): string {
  return `cli_${randomBytes(9).toString('base64url')}`;
}

export async function createClient(sql: Sql, input: { name: string; plan: PlanCode; createdAt?: Date; id?: string }): Promise<Client> {
  const id = input.id ?? newClientId();
  await sql.run('INSERT INTO clients (id, name, plan, created_at) VALUES (?, ?, ?, ?)', [
    id,
    input.name,
    input.plan,
    (input.createdAt ?? new Date()).toISOString(),
  ]);
  return (await getClient(sql, id))!;
}

export async function getClient(sql: Sql, id: string): Promise<Client | null> {
  const row = await sql.get<ClientRow>('SELECT * FROM clients WHERE id = ?', [id]);
  return row ? mapClientRow(row) : null;
}

export interface ClientChange {
  plan?: PlanCode;
  status?: ClientStatus;
  subscription?: SubscriptionStatus;
  monthlyCredits?: number;
  rpm?: number;
}

/** Applies an operator change; the server reads the row on every request, so it holds from the next one. */
export async function setClient(sql: Sql, id: string, change: ClientChange): Promise<Client | null> {
  await sql.run(
    `UPDATE clients SET
       plan = coalesce(@plan, plan),
       status = coalesce(@status, status),
       -- A status set without a reason (taxcert clients set --status) drops the old one.
       status_reason = CASE WHEN CAST(@status AS TEXT) IS NULL THEN status_reason END,
       subscription = coalesce(@subscription, subscription),
       monthly_credits = coalesce(@monthlyCredits, monthly_credits),
       rpm = coalesce(@rpm, rpm)
     WHERE id = @id`,
    {
      id,
      plan: change.plan ?? null,
      status: change.status ?? null,
      subscription: change.subscription ?? null,
      monthlyCredits: change.monthlyCredits ?? null,
      rpm: change.rpm ?? null,
    },
  );
  return getClient(sql, id);
}

/**
 * Suspends a client with a reason its users see when they sign in (spec 5.7: its keys are
 * refused from the next request on, as the same 401 as any bad key).
 */
export async function suspendClient(sql: Sql, id: string, reason: string): Promise<Client | null> {
  await sql.run("UPDATE clients SET status = 'suspended', status_reason = ? WHERE id = ?", [reason, id]);
  return getClient(sql, id);
}

/** Makes a suspended (or closed) client active again; its keys work from the next request. */
export async function reactivateClient(sql: Sql, id: string): Promise<Client | null> {
  await sql.run("UPDATE clients SET status = 'active', status_reason = NULL WHERE id = ?", [id]);
  return getClient(sql, id);
}

export async function listClients(sql: Sql): Promise<Client[]> {
  return (await sql.all<ClientRow>('SELECT * FROM clients ORDER BY created_at, id')).map(mapClientRow);
}
