import type { Database } from 'better-sqlite3';
import { ConfigError } from '../config.ts';

/**
 * A control-plane database belongs to one stack: the INDEX_PREFIX whose indices, aliases and
 * queue keys its counts, sources and runs describe. Before this, every stack of a checkout wrote
 * ./data/taxcert.db, and a second stack's demo load rewrote the first one's county counts
 * (issue 12, item 1).
 */
export class StackMismatchError extends ConfigError {
  override name = 'StackMismatchError';
  constructor(
    readonly path: string,
    readonly owner: string,
    readonly prefix: string,
  ) {
    super(
      `database ${path} belongs to the stack with INDEX_PREFIX=${owner}, not ${prefix}: give this stack its own DATABASE_PATH (by default data/<INDEX_PREFIX>.db)`,
    );
  }
}

/** Claims an unclaimed database for prefix; refuses one claimed by another prefix. */
export function claimStack(db: Database, prefix: string): void {
  const owner = db
    .transaction(() => {
      const row = db.prepare<[], { index_prefix: string }>('SELECT index_prefix FROM stack WHERE id = 1').get();
      if (row) return row.index_prefix;
      db.prepare('INSERT INTO stack (id, index_prefix) VALUES (1, ?)').run(prefix);
      return prefix;
    })
    .immediate();
  if (owner !== prefix) throw new StackMismatchError(db.name, owner, prefix);
}

/** The prefix a database was claimed for, or null before any stack opened it. */
export function stackOf(db: Database): string | null {
  return db.prepare<[], { index_prefix: string }>('SELECT index_prefix FROM stack WHERE id = 1').get()?.index_prefix ?? null;
}
