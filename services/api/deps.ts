import type { Sql } from '../control/db/sql.ts';
import type { Client } from '@opensearch-project/opensearch';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Registry } from '../domain/registry.ts';
import type { PagingCaches } from '../engine/paging/caches.ts';
import type { Logger } from '../logger.ts';

/** Everything a request may touch, built once in server.ts (or a test) and passed in. */
export interface ApiDeps {
  config: Config;
  logger: Logger;
  opensearch: Client;
  /** What the page engine remembers between requests (field types, marks), one per process like the client. */
  paging: PagingCaches;
  redis: Redis;
  /** The control plane: SQLite or PostgreSQL behind one async interface. */
  sql: Sql;
  /** County and sale-channel registry, loaded once at start-up (county slugs, vendor codes). */
  registry: Registry;
  /** When set, each request is reported as one line here instead of the logger's entries (npm start on a terminal). */
  requestLine?: (facts: { method: string; url: string; statusCode: number; ms: number }) => void;
}
