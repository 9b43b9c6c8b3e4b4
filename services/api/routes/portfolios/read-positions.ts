import type { Sql } from '../../../control/db/sql.ts';
import { type PortfolioRecord, type PositionRecord, positionsOf } from '../../../control/portfolios/index.ts';
import { aliasName } from '../../../domain/datasets.ts';
import { floridaToday } from '../../../domain/florida-today.ts';
import { getByIds, search } from '../../../engine/search.ts';
import type { ListResult, ObjectResult } from '../../envelope.ts';
import { FollowedGroupTooLargeError } from '../../writes/limits.ts';
import { assertCounties, type CertificatesDeps } from '../certificates/read.ts';
import { CERTIFICATE_SOURCE, type CertificateDocument } from '../certificates/row.ts';
import { type FigureDocument, type PositionFacts, type PositionFigures, positionFigures, renderPosition } from './position-answer.ts';
import { DOCVALUE_FIELDS, figureDocumentOf, figureDocuments, first } from './figure-docs.ts';
import { marketSnapshot } from './market-snapshot.ts';
import { followedPositionId } from '../../../domain/position-ids.ts';
import type { PositionRow } from './position-row.ts';
import type { PortfolioPath } from './params.ts';
import type { PositionsParams, SummaryParams } from './reading-params.ts';
import { ownPortfolio, type PortfolioOwner } from './read.ts';
import { selectPositions } from './select-positions.ts';
import { summarize } from './summarize.ts';
import type { PortfolioSummary } from './summary-row.ts';

/**
 * The portfolio reads: a portfolio's positions as of a day, and their summary. Each reads the
 * positions from SQL and the fields the rules need of every certificate in one mget against the
 * certificates alias (and, for a followed holder group, that group's certificates by search),
 * figures every position with the certificate routes' own rules (position-answer.ts), and only
 * then reads the whole documents of the page it renders. REST and the MCP tools call these.
 */

export type PortfoliosDeps = CertificatesDeps & { sql: Sql; config: { PORTFOLIO_GROUP_MAX: number } };

/** A followed group's certificates, read in pages this size by search_after (the engine's window). */
const GROUP_PAGE = 10_000;

/** What a followed certificate's position says of itself. */
type FollowedKeys = Pick<CertificateDocument, 'county_slug' | 'certificate_number' | 'tax_year'>;

/** A followed certificate's own keys, from doc values as the figures are (certificate_number's own spelling is its `raw` field). */
const FOLLOWED_DOCVALUE_FIELDS = [...DOCVALUE_FIELDS, { field: 'county_slug' }, { field: 'certificate_number.raw' }, { field: 'tax_year' }];

function followedOf(f: Record<string, unknown[]>): FigureDocument & FollowedKeys {
  return {
    ...figureDocumentOf(f),
    county_slug: first<string>(f, 'county_slug')!,
    certificate_number: first<string>(f, 'certificate_number.raw')!,
    tax_year: first<number>(f, 'tax_year')!,
  };
}

/**
 * Every certificate of a holder group (holder_group_id, the field /analytics/holders groups by),
 * in id order, with the fields the figures need, from doc values like figure-docs.ts (a group of
 * 77,488 certificates of the 10M set: 2.1-3.4 s in pages of 10,000, against 4.2-10.8 s from
 * _source, caches cleared). Paged by search_after, a page per request; the first page's hit
 * count, counted to one past the most a portfolio reads, refuses a group that has grown past it
 * before anything more is read (and a page that passes it, grown between pages).
 */
async function groupCertificates(deps: PortfoliosDeps, portfolioId: string, groupId: string): Promise<(FigureDocument & FollowedKeys)[]> {
  const index = aliasName(deps.config.INDEX_PREFIX, 'certificates');
  const most = deps.config.PORTFOLIO_GROUP_MAX;
  const tooLarge = () => new FollowedGroupTooLargeError({ portfolioId, group: groupId, limit: most });
  const out: (FigureDocument & FollowedKeys)[] = [];
  let after: unknown[] | undefined;
  for (;;) {
    const page = await search<never>(deps.opensearch, index, {
      query: { bool: { filter: [{ term: { holder_group_id: groupId } }] } },
      sort: [{ id: 'asc' }],
      size: GROUP_PAGE,
      track_total_hits: after ? false : most + 1,
      stored_fields: '_none_',
      docvalue_fields: FOLLOWED_DOCVALUE_FIELDS,
      ...(after ? { search_after: after } : {}),
    });
    if (!after && page.total > most) throw tooLarge();
    for (const h of page.hits) out.push(followedOf(h.fields ?? {}));
    if (out.length > most) throw tooLarge();
    if (page.hits.length < GROUP_PAGE) return out;
    after = page.hits[page.hits.length - 1]!.sort;
  }
}

function addedFacts(p: PositionRecord): PositionFacts {
  return {
    id: p.id,
    origin: 'added',
    certificate_id: p.certificate_id,
    county_slug: p.county_slug,
    certificate_number: p.certificate_number,
    tax_year: p.tax_year,
    acquired_on: p.acquired_on,
    acquired_amount_cents: p.acquired_amount_cents,
    note: p.note,
  };
}

function followedFacts(portfolioId: string, c: FigureDocument & FollowedKeys): PositionFacts {
  return {
    id: followedPositionId(portfolioId, c.id),
    origin: 'holder_group',
    certificate_id: c.id,
    county_slug: c.county_slug,
    certificate_number: c.certificate_number,
    tax_year: c.tax_year,
    acquired_on: null,
    acquired_amount_cents: null,
    note: null,
  };
}

function certificatesIndex(deps: CertificatesDeps): string {
  return aliasName(deps.config.INDEX_PREFIX, 'certificates');
}

/**
 * Every position's figures on `asOf`: the written positions, then the followed group's
 * certificates that no written position already holds (a written position keeps its acquired
 * amount and note). What the engine holds of them is read once per change of the market, and
 * the figures computed once per market, positions revision and day (market-snapshot.ts).
 * Callers filter and sort copies: the list returned is shared.
 */
export async function portfolioFigures(deps: PortfoliosDeps, portfolio: PortfolioRecord, asOf: string): Promise<PositionFigures[]> {
  const snapshot = await marketSnapshot<FigureDocument, FigureDocument & FollowedKeys>(deps, certificatesIndex(deps));
  const figured = `${portfolio.id}|${portfolio.positions_revision}|${portfolio.follow_holder_group}|${asOf}`;
  const kept = snapshot.figures.get(figured) as PositionFigures[] | undefined;
  if (kept) return kept;
  const group = portfolio.follow_holder_group;
  const [added, followed] = await Promise.all([
    positionsOf(deps.sql, portfolio.id),
    group === null ? Promise.resolve([]) : (snapshot.groups.get(group) ?? groupCertificates(deps, portfolio.id, group)),
  ]);
  if (group !== null) snapshot.groups.set(group, followed);
  const ids = added.map((p) => p.certificate_id);
  const missing = ids.filter((id) => !snapshot.docs.has(id));
  const fetched = await figureDocuments(deps, certificatesIndex(deps), missing);
  for (const [i, id] of missing.entries()) snapshot.docs.set(id, fetched[i] ?? null);
  const docs = ids.map((id) => snapshot.docs.get(id) ?? null);
  const figures = added.map((p, i) => positionFigures(addedFacts(p), docs[i] ?? null, asOf));
  const held = new Set(added.map((p) => p.certificate_id));
  for (const c of followed) if (!held.has(c.id)) figures.push(positionFigures(followedFacts(portfolio.id, c), c, asOf));
  snapshot.figures.set(figured, figures);
  return figures;
}

/**
 * The rows of a page: the page's whole documents in one mget, each row figured again from its
 * whole document, so a row always agrees with itself and with /certificates/{id} even if an
 * ingest changed the certificate between the two reads (the order was decided on the first).
 */
async function renderPage(deps: PortfoliosDeps, page: readonly PositionFigures[], asOf: string): Promise<PositionRow[]> {
  const docs = await getByIds<CertificateDocument>(
    deps.opensearch,
    certificatesIndex(deps),
    page.map((f) => f.facts.certificate_id),
    CERTIFICATE_SOURCE,
  );
  const base = deps.config.PARCEL_BASE_URL;
  return page.map((f, i) => {
    const doc = docs[i] ?? null;
    return renderPosition(positionFigures(f.facts, doc, asOf), doc, asOf, base);
  });
}

/**
 * The positions a page's filters and order select, kept beside the figures they were made of (the
 * same list object while the market snapshot holds it): paging through a followed group of
 * 100,000 certificates sorted them all again for every page.
 */
const selections = new WeakMap<readonly PositionFigures[], Map<string, PositionFigures[]>>();
const MAX_SELECTIONS = 32;

function selectionOf(figures: readonly PositionFigures[], params: PositionsParams): readonly PositionFigures[] {
  const key = JSON.stringify([params.sort, params.status ?? null, params.county ?? null, params.deadline_before ?? null]);
  let kept = selections.get(figures);
  if (!kept) {
    kept = new Map();
    selections.set(figures, kept);
  }
  let selected = kept.get(key);
  if (!selected) {
    selected = selectPositions(figures, params);
    if (kept.size >= MAX_SELECTIONS) kept.clear();
    kept.set(key, selected);
  }
  return selected;
}

/** GET /portfolios/{id}/positions: filtered and ordered on every position's figures, then one page rendered. */
export async function readPortfolioPositions(
  deps: PortfoliosDeps,
  owner: PortfolioOwner,
  path: PortfolioPath,
  params: PositionsParams,
  now = new Date(),
): Promise<ListResult<PositionRow>> {
  assertCounties(deps.registry, 'county', params.county);
  const portfolio = await ownPortfolio(deps.sql, owner, path.id);
  const asOf = params.as_of ?? floridaToday(now);
  const selected = selectionOf(await portfolioFigures(deps, portfolio, asOf), params);
  return {
    rows: await renderPage(deps, selected.slice(params.offset, params.offset + params.limit), asOf),
    limit: params.limit,
    offset: params.offset,
    total: selected.length,
  };
}

/** GET /portfolios/{id}/summary: the sums of the positions' own figures. */
export async function readPortfolioSummary(
  deps: PortfoliosDeps,
  owner: PortfolioOwner,
  path: PortfolioPath,
  params: SummaryParams,
  now = new Date(),
): Promise<ObjectResult<PortfolioSummary>> {
  const portfolio = await ownPortfolio(deps.sql, owner, path.id);
  const asOf = params.as_of ?? floridaToday(now);
  return { data: summarize(portfolio.id, asOf, await portfolioFigures(deps, portfolio, asOf)) };
}
