import type { Database, Statement } from 'better-sqlite3';

/**
 * Prepared statements kept per database handle. Preparing parses and plans the SQL each time,
 * which on the webhook worker's hot path (a few statements per delivery, thousands of deliveries
 * a second) cost more than running them. A handle's statements go when the handle does.
 */
const caches = new WeakMap<Database, Map<string, Statement<unknown[], unknown>>>();

export function statement<P extends unknown[] = unknown[], R = unknown>(db: Database, sql: string): Statement<P, R> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let found = cache.get(sql);
  if (!found) {
    found = db.prepare(sql) as Statement<unknown[], unknown>;
    cache.set(sql, found);
  }
  return found as unknown as Statement<P, R>;
}
