import type { Client } from '@opensearch-project/opensearch';
import type { Config } from '../services/config.ts';
import type { Sql } from '../services/control/db/sql.ts';
import type { Registry } from '../services/domain/registry.ts';
import type { Logger } from '../services/logger.ts';

/**
 * What the worker's queues are handed: built once by the process that runs them
 * (services/process/runtime.ts, or a test) and passed in, as the API is handed ApiDeps.
 * The indexer names what it uses rather than importing the process that assembles it,
 * which sits above it.
 */
export interface IndexerDeps {
  config: Config;
  logger: Logger;
  /** The county and sale-channel registry, loaded once by the process. */
  registry: Registry;
  /** The control plane. */
  sql: Sql;
  opensearch: Client;
}
