import { settledEventSeq } from '../../../control/feed/events.ts';
import type { Sql } from '../../../control/db/sql.ts';
import type { CertificatesDeps } from '../certificates/read.ts';

/**
 * What this API process last read of the certificates a portfolio read needs, kept while the
 * market has not changed: a certificate's figures (status, dates, face, rate) change only by an
 * ingest, and an ingest that changes anything a reader can see records an event once it is
 * searchable (the change feed); a reindex moves the alias. So the newest event's id and the
 * alias's target name together say "nothing changed since": a portfolio of 10,000 positions is
 * read from the engine once per change of the market, not once per request. Another API host
 * keeps its own.
 *
 * A read before an ingest's refresh keeps what it saw under the key of the moment; the event the
 * ingest records once searchable moves the key, and the next read reads again.
 */

export interface MarketSnapshot<Doc, Group> {
  key: string;
  /**
   * What a portfolio's positions came to on a day, under this market: kept by portfolio,
   * positions revision, followed group and day, so a change of its positions is a new entry.
   */
  figures: Map<string, readonly unknown[]>;
  /** Certificate id -> what the read needs of it, or null when it is not loaded. */
  docs: Map<string, Doc | null>;
  /** Holder group id -> its certificates. */
  groups: Map<string, Group[]>;
}

/**
 * Past this many certificates held (documents, followed groups' certificates and figured
 * positions, counted together), or portfolios figured, the snapshot starts again empty. A
 * followed group is read whole, so groups count too. Measured on 100,000 of each: a document
 * held about 306 bytes, a figured position about 525, so the largest followed group a portfolio
 * reads (PORTFOLIO_GROUP_MAX, 100,000) and its figures, about 83 MB, stay kept between requests, and one read
 * adds at most a portfolio's written positions and its group to what is already held.
 */
const MAX_HELD = 250_000;
const MAX_FIGURED = 20;

function heldCount(s: MarketSnapshot<unknown, unknown>): number {
  let n = s.docs.size;
  for (const g of s.groups.values()) n += g.length;
  for (const f of s.figures.values()) n += f.length;
  return n;
}

let held: MarketSnapshot<unknown, unknown> | undefined;

async function marketKey(deps: CertificatesDeps & { sql: Sql }, alias: string): Promise<string> {
  const [seq, targets] = await Promise.all([
    settledEventSeq(deps.sql),
    deps.opensearch.indices.getAlias({ name: alias }, { ignore: [404] }),
  ]);
  return `${Object.keys(targets.statusCode === 404 ? {} : (targets.body ?? {}))
    .sort()
    .join(',')}|${seq ?? 'none'}`;
}

export async function marketSnapshot<Doc, Group>(
  deps: CertificatesDeps & { sql: Sql },
  alias: string,
): Promise<MarketSnapshot<Doc, Group>> {
  const key = await marketKey(deps, alias);
  if (held?.key !== key || heldCount(held) > MAX_HELD) held = { key, docs: new Map(), groups: new Map(), figures: new Map() };
  if (held.figures.size > MAX_FIGURED) held.figures.clear();
  return held as MarketSnapshot<Doc, Group>;
}
