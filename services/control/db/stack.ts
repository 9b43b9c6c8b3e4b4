import { ConfigError } from '../../config.ts';
import type { Sql } from './sql.ts';

/**
 * A control-plane database belongs to one stack: the INDEX_PREFIX whose indices, aliases and
 * queue keys its counts, sources and runs describe. Before this, every stack of a checkout wrote
 * ./data/taxcert.db, and a second stack's demo load rewrote the first one's county counts.
 */
export class StackMismatchError extends ConfigError {
  override name = 'StackMismatchError';
  constructor(
    readonly path: string,
    readonly owner: string,
    readonly prefix: string,
  ) {
    super(
      `database ${path} belongs to the stack with INDEX_PREFIX=${owner}, not ${prefix}: give this stack its own DATABASE_PATH (by default data/<INDEX_PREFIX>.db) or DATABASE_URL`,
    );
  }
}

/** Claims an unclaimed database for prefix; refuses one claimed by another prefix. `where` names it in the error. */
export async function claimStack(sql: Sql, prefix: string, where: string): Promise<void> {
  const owner = await sql.transaction(async (tx) => {
    const row = await tx.get<{ index_prefix: string }>('SELECT index_prefix FROM stack WHERE id = 1');
    if (row) return row.index_prefix;
    await tx.run('INSERT INTO stack (id, index_prefix) VALUES (1, ?)', [prefix]);
    return prefix;
  });
  if (owner !== prefix) throw new StackMismatchError(where, owner, prefix);
}

/** The prefix a database was claimed for, or null before any stack opened it. */
export async function stackOf(sql: Sql): Promise<string | null> {
  return (await sql.get<{ index_prefix: string }>('SELECT index_prefix FROM stack WHERE id = 1'))?.index_prefix ?? null;
}
