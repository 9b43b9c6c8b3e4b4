import type { RateLimiter } from '../api/access/rate-limit.ts';
import type { Client as OpenSearch } from '@opensearch-project/opensearch';
import type { PagingCaches } from '../engine/paging/caches.ts';
import type { Sql } from '../control/db/sql.ts';
import type { Config } from '../config.ts';
import type { Client } from '../control/billing/clients.ts';
import type { Ledger } from '../control/billing/ledger.ts';
import type { PasswordHasher } from '../control/accounts/passwords.ts';
import type { User } from '../control/accounts/users.ts';
import type { Registry } from '../domain/registry.ts';
import type { Logger } from '../logger.ts';
import type { BillingProvider } from './billing/provider.ts';
import type { Postman } from './mail/links.ts';
import type { SiteSettings } from './settings.ts';
import type { Throttle } from './throttle.ts';

/** What every page of the account scope is handed, built once in register.ts. */
export interface PageContext {
  /** The control plane: SQLite or PostgreSQL behind one async interface. */
  sql: Sql;
  /** The engine: a saved search's query is written there as the API writes it. */
  opensearch: OpenSearch;
  config: Config;
  /** The API's paging caches: the portfolio reads take the certificate routes' deps whole. */
  paging: PagingCaches;
  logger: Logger;
  /** Counties by slug and name: the webhooks form's county filter is checked against it. */
  registry: Registry;
  settings: SiteSettings;
  clock: () => Date;
  /** The API's own ledger (app.access.ledger): the overview reads and touches the buckets the API charges. */
  ledger: Ledger;
  /** The API's per-minute window (app.access.rateLimiter): the explorer's reads take slots of it as the client's API requests do. */
  rateLimiter: RateLimiter;
  throttle: Throttle;
  postman: Postman;
  /** null: BILLING_PROVIDER=none, prices are shown and changes go through an operator. */
  billing: BillingProvider | null;
  /** Every argon2 hash and check of the pages goes through this (counted by the tests). */
  passwords: PasswordHasher;
  /** An argon2id hash nobody's password matches: checked when a sign-in names no user who may sign in. */
  dummyHash: Promise<string>;
}

/** The signed-in person, loaded from the session cookie on every request of the scope. */
export interface SignedIn {
  user: User;
  client: Client;
  /** The raw cookie value, to end this session at sign-out or rotate it at sign-in. */
  cookie: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the account scope's session hook; null when nobody is signed in. */
    account: SignedIn | null;
    /** A session cookie came in but its session had ended (idle or too old): the sign-in page says so. */
    sessionEnded: boolean;
  }
}
