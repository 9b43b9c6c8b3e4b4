import type { Sql } from '../db/sql.ts';

/**
 * Who holds changed certificates, for the alerts of an ingest (indexer/certificates/
 * portfolio-changes.ts): one read per batch of changes, over the positions by certificate id and
 * the portfolios following any of the holder groups the certificates had before or after.
 */

export interface Holding {
  portfolioId: string;
  portfolioName: string;
  clientId: string;
  /** The written position holding the certificate; null for a portfolio that follows the certificate's holder group. */
  positionId: string | null;
  /** The certificate a position holds, or the group a portfolio follows. */
  key: string;
}

export interface Holdings {
  byCertificate: ReadonlyMap<string, readonly Holding[]>;
  byGroup: ReadonlyMap<string, readonly Holding[]>;
}

interface Row {
  portfolio_id: string;
  name: string;
  client_id: string;
  position_id: string | null;
  certificate_id: string | null;
  follow_holder_group: string | null;
}

function grouped(rows: readonly Holding[]): Map<string, Holding[]> {
  const out = new Map<string, Holding[]>();
  for (const h of rows) {
    const list = out.get(h.key);
    if (list) list.push(h);
    else out.set(h.key, [h]);
  }
  return out;
}

/** The positions holding these certificates and the portfolios following these groups, in one query. */
export async function holdingsOf(sql: Sql, certificateIds: readonly string[], groups: readonly string[]): Promise<Holdings> {
  if (certificateIds.length === 0 && groups.length === 0) return { byCertificate: new Map(), byGroup: new Map() };
  const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
  const parts: string[] = [];
  if (certificateIds.length > 0)
    parts.push(`SELECT f.id AS portfolio_id, f.name, f.client_id, p.id AS position_id, p.certificate_id, CAST(NULL AS TEXT) AS follow_holder_group
      FROM portfolio_positions p JOIN portfolios f ON f.id = p.portfolio_id WHERE p.certificate_id IN (${marks(certificateIds.length)})`);
  if (groups.length > 0)
    parts.push(`SELECT f.id AS portfolio_id, f.name, f.client_id, CAST(NULL AS TEXT) AS position_id, CAST(NULL AS TEXT) AS certificate_id, f.follow_holder_group
      FROM portfolios f WHERE f.follow_holder_group IN (${marks(groups.length)})`);
  const rows = await sql.all<Row>(parts.join(' UNION ALL '), [...certificateIds, ...groups]);
  const held = (r: Row, key: string): Holding => ({
    portfolioId: r.portfolio_id,
    portfolioName: r.name,
    clientId: r.client_id,
    positionId: r.position_id,
    key,
  });
  return {
    byCertificate: grouped(rows.filter((r) => r.certificate_id !== null).map((r) => held(r, r.certificate_id!))),
    byGroup: grouped(rows.filter((r) => r.follow_holder_group !== null).map((r) => held(r, r.follow_holder_group!))),
  };
}
