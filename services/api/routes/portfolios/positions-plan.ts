import type { AddedPosition, NewPosition } from '../../../control/portfolios/index.ts';
import type { LoadedCertificate } from './engine-facts.ts';
import type { LineError, LineReading } from './position-line.ts';
import { mapPosition } from './read.ts';
import type { PositionsReport } from './row.ts';

/**
 * The two pure steps around the store in POST /portfolios/{id}/positions: which position each
 * read line asks for, given the loaded certificates, and the per-line report from what the
 * store did with them. Lines are numbered from 1, as the answer numbers them.
 */

export interface PositionsPlan {
  /** Per line sent: its refusal, or undefined when it asks for a position. */
  errors: (LineError | undefined)[];
  /** The positions asked for, in line order, for addPositions. */
  adding: NewPosition[];
  /** Line index -> its index in `adding`. */
  addingOf: number[];
  /** Index in `adding` -> its line number. */
  lineOf: number[];
}

/** The certificate ids the lines name, each once: the one engine query of the request. */
export function certificateIdsOf(readings: readonly LineReading[]): string[] {
  return [...new Set(readings.flatMap((r) => (r.ok ? [r.line.certificate_id] : [])))];
}

/**
 * A line by key keeps its county, number and year, or the loaded certificate's when there is one
 * (its spelling of the number); a line by id needs the loaded certificate to know them.
 */
export function planPositions(readings: readonly LineReading[], loaded: ReadonlyMap<string, LoadedCertificate>): PositionsPlan {
  const plan: PositionsPlan = { errors: [], adding: [], addingOf: [], lineOf: [] };
  for (const [i, r] of readings.entries()) {
    if (!r.ok) {
      plan.errors.push(r.error);
      continue;
    }
    const key = loaded.get(r.line.certificate_id) ?? r.line.key;
    if (!key) {
      plan.errors.push({
        code: 'unknown_certificate',
        field: 'certificate_id',
        message: `no loaded certificate has id ${r.line.certificate_id}; to hold a certificate not loaded yet, give county, certificate_number and tax_year`,
      });
      continue;
    }
    plan.errors.push(undefined);
    plan.addingOf[i] = plan.adding.length;
    plan.lineOf.push(i + 1);
    const { certificate_id, acquired_on, acquired_amount_cents, note } = r.line;
    plan.adding.push({
      certificate_id,
      county_slug: key.county_slug,
      certificate_number: key.certificate_number,
      tax_year: Number(key.tax_year),
      acquired_on,
      acquired_amount_cents,
      note,
    });
  }
  return plan;
}

/** Every line's outcome in order, with the counts; `resolved` is whether the certificate was loaded. */
export function positionsReport(
  portfolioId: string,
  plan: PositionsPlan,
  added: readonly AddedPosition[],
  loaded: ReadonlyMap<string, unknown>,
): PositionsReport {
  const report: PositionsReport = { portfolio_id: portfolioId, created: 0, unresolved: 0, rejected: 0, lines: [] };
  plan.errors.forEach((error, i) => {
    const line = i + 1;
    if (error) {
      report.rejected++;
      report.lines.push({ line, status: 'rejected', error });
      return;
    }
    const outcome = added[plan.addingOf[i]!]!;
    if (outcome.status === 'created') {
      const resolved = loaded.has(outcome.position.certificate_id);
      report.created++;
      if (!resolved) report.unresolved++;
      report.lines.push({ line, status: 'created', position: mapPosition(outcome.position, resolved) });
      return;
    }
    report.rejected++;
    const message =
      'positionId' in outcome
        ? `the portfolio already holds this certificate as position ${outcome.positionId}`
        : `line ${plan.lineOf[outcome.line]} of this request already adds this certificate`;
    report.lines.push({ line, status: 'rejected', error: { code: 'duplicate', field: 'line', message } });
  });
  return report;
}
