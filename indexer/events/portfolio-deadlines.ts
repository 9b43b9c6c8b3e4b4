import type { Client } from '@opensearch-project/opensearch';
import type { Sql } from '../../services/control/db/sql.ts';
import {
  type AlertPosition,
  alertPositionsAfter,
  type DeadlineAlertInput,
  recordDeadlineAlerts,
} from '../../services/control/portfolios/deadline-alerts.ts';
import { CERTIFICATE_SOURCE, type CertificateDocument, mapCertificate } from '../../services/domain/certificate-row.ts';
import { aliasName } from '../../services/domain/datasets.ts';
import { floridaToday } from '../../services/domain/florida-today.ts';
import { dueDeadlineAlerts } from '../../services/domain/portfolio-deadlines.ts';

/**
 * The daily deadline alerts of portfolios (docs/portfolios.md, Alerts): on Florida's calendar day,
 * every position whose certificate is loaded is judged against its deadlines
 * (services/domain/portfolio-deadlines.ts), and each alert due and not sent before becomes a
 * private portfolio.deadline_approaching of the portfolio's client. Positions are read from the
 * control plane a page at a time and their certificates from the engine in one mget a page, never
 * one request a position; a position whose certificate is not loaded has no deadline yet. Run
 * twice, or by two workers at once, it records each alert once (deadline-alerts.ts).
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
    if (positions.length === 0) return recorded;
    const certificates = await loadedCertificates(deps.opensearch, alias, positions);
    const alerts = positions.flatMap((p) => alertsOf(p, certificates.get(p.certificateId), today, deps.parcelBaseUrl));
    recorded += (await recordDeadlineAlerts(deps.sql, alerts)).length;
    if (positions.length < PAGE) return recorded;
    after = positions.at(-1)!.positionId;
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
