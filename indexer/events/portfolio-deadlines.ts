import type { Client } from '@opensearch-project/opensearch';
import type { Sql } from '../../services/control/db/sql.ts';
import {
  type AlertPosition,
  alertPositionsAfter,
  type DeadlineAlertInput,
  type FollowingPortfolio,
  followingPortfolios,
  recordDeadlineAlerts,
  recordGroupDeadlineAlerts,
} from '../../services/control/portfolios/deadline-alerts.ts';
import { CERTIFICATE_SOURCE, type CertificateDocument, mapCertificate } from '../../services/domain/certificate-row.ts';
import { aliasName } from '../../services/domain/datasets.ts';
import { floridaToday } from '../../services/domain/florida-today.ts';
import { alertSaleDateRanges, dueDeadlineAlerts } from '../../services/domain/portfolio-deadlines.ts';
import { followedPositionId } from '../../services/domain/position-ids.ts';

/**
 * The daily deadline alerts of portfolios (docs/portfolios.md, Alerts): on Florida's calendar day,
 * every position whose certificate is loaded is judged against its deadlines
 * (services/domain/portfolio-deadlines.ts), and each alert due and not sent before becomes a
 * private portfolio.deadline_approaching of the portfolio's client. Positions are read from the
 * control plane a page at a time and their certificates from the engine in one mget a page, never
 * one request a position; a position whose certificate is not loaded has no deadline yet. Run
 * twice, or by two workers at once, it records each alert once (deadline-alerts.ts). A portfolio
 * following a holder group is told of the group's certificates as of its written positions.
 */

const PAGE = 2000;

export interface PortfolioDeadlineDeps {
  opensearch: Client;
  sql: Sql;
  prefix: string;
  parcelBaseUrl: string;
}

/** Records the alerts due on Florida's day at now(); returns how many were recorded. */
export async function recordPortfolioDeadlines(deps: PortfolioDeadlineDeps, now: () => Date = () => new Date()): Promise<number> {
  const today = floridaToday(now());
  const alias = aliasName(deps.prefix, 'certificates');
  let recorded = 0;
  let after = '';
  for (;;) {
    const positions = await alertPositionsAfter(deps.sql, after, PAGE);
    if (positions.length === 0) break;
    const certificates = await loadedCertificates(deps.opensearch, alias, positions);
    const alerts = positions.flatMap((p) => alertsOf(p, certificates.get(p.certificateId), today, deps.parcelBaseUrl));
    recorded += (await recordDeadlineAlerts(deps.sql, alerts)).length;
    if (positions.length < PAGE) break;
    after = positions.at(-1)!.positionId;
  }
  for (const portfolio of await followingPortfolios(deps.sql)) recorded += await recordGroupDeadlines(deps, alias, portfolio, today);
  return recorded;
}

/**
 * A followed holder group's certificates are positions too: those whose sale dates can owe an
 * alert today (alertSaleDateRanges) are read from the engine a page at a time and judged as
 * written positions are, under the position ids the portfolio's reads give them.
 */
async function recordGroupDeadlines(
  deps: PortfolioDeadlineDeps,
  alias: string,
  portfolio: FollowingPortfolio,
  today: string,
): Promise<number> {
  if (!(await deps.opensearch.indices.existsAlias({ name: alias })).body) return 0;
  const query = {
    bool: {
      filter: [{ term: { holder_group_id: portfolio.group } }, { terms: { status: ['sold', 'tax_deed_applied'] } }],
      should: alertSaleDateRanges(today).map((r) => ({ range: { sale_date: r } })),
      minimum_should_match: 1,
    },
  };
  let recorded = 0;
  let after: unknown[] | undefined;
  for (;;) {
    const res = await deps.opensearch.search({
      index: alias,
      body: { size: PAGE, query, sort: [{ id: 'asc' }], _source: CERTIFICATE_SOURCE, ...(after ? { search_after: after } : {}) } as never,
    });
    const hits = res.body.hits.hits as unknown as { _source: CertificateDocument; sort: unknown[] }[];
    const alerts = hits.flatMap((h) => {
      const position: AlertPosition = {
        ...portfolio,
        positionId: followedPositionId(portfolio.portfolioId, h._source.id),
        certificateId: h._source.id,
      };
      return alertsOf(position, h._source, today, deps.parcelBaseUrl).map((a) => ({
        ...a,
        certificateId: h._source.id,
        group: portfolio.group,
      }));
    });
    recorded += (await recordGroupDeadlineAlerts(deps.sql, alerts)).length;
    if (hits.length < PAGE) return recorded;
    after = hits.at(-1)!.sort;
  }
}

async function loadedCertificates(
  client: Client,
  alias: string,
  positions: readonly AlertPosition[],
): Promise<Map<string, CertificateDocument>> {
  const ids = [...new Set(positions.map((p) => p.certificateId))];
  const found = new Map<string, CertificateDocument>();
  // Positions may name certificates of a market never loaded: no alias yet, so nothing is loaded.
  if (!(await client.indices.existsAlias({ name: alias })).body) return found;
  const res = await client.mget({ index: alias, _source_includes: CERTIFICATE_SOURCE.join(','), body: { ids } });
  for (const d of (res.body as { docs: { _id: string; found?: boolean; _source?: CertificateDocument }[] }).docs)
    if (d.found && d._source) found.set(d._id, d._source);
  return found;
}

function alertsOf(p: AlertPosition, doc: CertificateDocument | undefined, today: string, parcelBaseUrl: string): DeadlineAlertInput[] {
  if (!doc) return [];
  const due = dueDeadlineAlerts(doc, today);
  if (due.length === 0) return [];
  const certificate = mapCertificate(doc, parcelBaseUrl);
  return due.map((d) => ({
    positionId: p.positionId,
    horizon: d.horizon,
    event: {
      type: 'portfolio.deadline_approaching',
      countySlug: doc.county_slug,
      data: {
        portfolio: { id: p.portfolioId, name: p.portfolioName },
        position: { id: p.positionId },
        certificate,
        kind: d.kind,
        date: d.date,
        days_left: d.days_left,
      },
      owner: { clientId: p.clientId, portfolioId: p.portfolioId },
    },
  }));
}
