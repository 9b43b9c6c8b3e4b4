import type { Sql } from '../../../control/db/sql.ts';
import {
  addPositions,
  createPortfolio,
  deletePortfolio,
  deletePosition,
  type NewPosition,
  PortfolioLimitError,
  PositionLimitError,
  updatePortfolio,
} from '../../../control/portfolios/index.ts';
import { floridaToday } from '../../../domain/florida-today.ts';
import type { Registry } from '../../../domain/registry.ts';
import { InvalidParamsError, NotFoundError } from '../../errors.ts';
import { LimitReachedError, PositionLimitReachedError, resourceLimit } from '../../writes/limits.ts';
import { deleted, type WriteResult } from '../../writes/respond.ts';
import { type EngineFactsDeps, holderGroupExists, loadedCertificates } from './engine-facts.ts';
import type { AddPositionsBody, CreatePortfolioBody, UpdatePortfolioBody } from './params.ts';
import { type LineError, type LineReading, readPositionLine } from './position-line.ts';
import { mapPortfolio, mapPosition, ownPortfolio, type PortfolioOwner, portfolioNotFound } from './read.ts';
import type { PortfolioRow, PositionsReport } from './row.ts';

/**
 * The portfolio writes (docs/portfolios.md, under docs/writes.md): the control plane keeps
 * portfolios and positions; the engine is asked once per request whether a followed holder
 * group exists and which of the request's certificates are loaded.
 */
export interface PortfolioWriteDeps extends EngineFactsDeps {
  sql: Sql;
  registry: Pick<Registry, 'county'>;
}

/** A followed group must be one the certificates name, else the portfolio would follow nothing, silently. */
async function assertHolderGroup(deps: PortfolioWriteDeps, group: string | null | undefined): Promise<void> {
  if (group == null || (await holderGroupExists(deps, group))) return;
  throw new InvalidParamsError([
    {
      parameter: 'follow_holder_group',
      message: `no holder group ${JSON.stringify(group)}; GET /api/v1/analytics/holders lists the groups with their group_id`,
    },
  ]);
}

export async function createPortfolioWrite(
  deps: PortfolioWriteDeps,
  principal: PortfolioOwner,
  body: CreatePortfolioBody,
): Promise<WriteResult<PortfolioRow>> {
  await assertHolderGroup(deps, body.follow_holder_group);
  const limit = resourceLimit('portfolios', principal.plan);
  try {
    const made = await createPortfolio(deps.sql, {
      clientId: principal.client.id,
      name: body.name,
      followHolderGroup: body.follow_holder_group ?? null,
      limit,
    });
    return { status: 201, data: mapPortfolio(made) };
  } catch (err) {
    if (err instanceof PortfolioLimitError) throw new LimitReachedError('portfolios', limit, principal.plan.code);
    throw err;
  }
}

export async function updatePortfolioWrite(
  deps: PortfolioWriteDeps,
  principal: PortfolioOwner,
  id: string,
  body: UpdatePortfolioBody,
): Promise<WriteResult<PortfolioRow>> {
  // Ownership first: another client's id is a 404 whatever the body says.
  await ownPortfolio(deps.sql, principal, id);
  await assertHolderGroup(deps, body.follow_holder_group);
  if (!(await updatePortfolio(deps.sql, principal.client.id, id, { name: body.name, followHolderGroup: body.follow_holder_group })))
    throw portfolioNotFound(id);
  return { status: 200, data: mapPortfolio(await ownPortfolio(deps.sql, principal, id)) };
}

export async function deletePortfolioWrite(
  deps: PortfolioWriteDeps,
  principal: PortfolioOwner,
  id: string,
): Promise<WriteResult<{ id: string; deleted: true }>> {
  if (!(await deletePortfolio(deps.sql, principal.client.id, id))) throw portfolioNotFound(id);
  return deleted(id);
}

/**
 * POST /portfolios/{id}/positions: every line read on its own (position-line.ts), the loaded
 * certificates among them found by one engine query, then the good lines added in one
 * transaction. The answer is a 200 whatever became of the lines: the request was read whole, and
 * its report says, line by line in order, which were created and why the others were not.
 */
export async function addPositionsWrite(
  deps: PortfolioWriteDeps,
  principal: PortfolioOwner,
  id: string,
  body: AddPositionsBody,
  now = new Date(),
): Promise<WriteResult<PositionsReport>> {
  await ownPortfolio(deps.sql, principal, id);
  const today = floridaToday(now);
  const readings: LineReading[] = body.positions.map((line) => readPositionLine(line, deps.registry, today));
  const ids = [...new Set(readings.flatMap((r) => (r.ok ? [r.line.certificate_id] : [])))];
  const loaded = await loadedCertificates(deps, ids);

  // Each line's own refusal, or the position it asks for: adding[addingOf[i]], and back, lineOf[j] (1-based).
  const errors: (LineError | undefined)[] = [];
  const adding: NewPosition[] = [];
  const addingOf: number[] = [];
  const lineOf: number[] = [];
  for (const [i, r] of readings.entries()) {
    if (!r.ok) {
      errors.push(r.error);
      continue;
    }
    const doc = loaded.get(r.line.certificate_id);
    const key = doc ?? r.line.key;
    if (!key) {
      errors.push({
        code: 'unknown_certificate',
        field: 'certificate_id',
        message: `no loaded certificate has id ${r.line.certificate_id}; to hold a certificate not loaded yet, give county, certificate_number and tax_year`,
      });
      continue;
    }
    errors.push(undefined);
    addingOf[i] = adding.length;
    lineOf.push(i + 1);
    const { certificate_id, acquired_on, acquired_amount_cents, note } = r.line;
    adding.push({
      certificate_id,
      county_slug: key.county_slug,
      certificate_number: key.certificate_number,
      tax_year: Number(key.tax_year),
      acquired_on,
      acquired_amount_cents,
      note,
    });
  }

  const limit = resourceLimit('portfolio_positions', principal.plan);
  let added: Awaited<ReturnType<typeof addPositions>>;
  try {
    added = await addPositions(deps.sql, id, adding, limit, now);
  } catch (err) {
    if (err instanceof PositionLimitError)
      throw new PositionLimitReachedError({ portfolioId: id, limit, plan: principal.plan.code, held: err.held, adding: err.adding });
    throw err;
  }
  // Deleted between the ownership check and the transaction.
  if (!added) throw portfolioNotFound(id);

  const report: PositionsReport = { portfolio_id: id, created: 0, unresolved: 0, rejected: 0, lines: [] };
  errors.forEach((error, i) => {
    const line = i + 1;
    if (error) {
      report.rejected++;
      report.lines.push({ line, status: 'rejected', error });
      return;
    }
    const outcome = added[addingOf[i]!]!;
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
        : `line ${lineOf[outcome.line]} of this request already adds this certificate`;
    report.lines.push({ line, status: 'rejected', error: { code: 'duplicate', field: 'line', message } });
  });
  return { status: 200, data: report };
}

export async function deletePositionWrite(
  deps: PortfolioWriteDeps,
  principal: PortfolioOwner,
  id: string,
  positionId: string,
): Promise<WriteResult<{ id: string; deleted: true }>> {
  await ownPortfolio(deps.sql, principal, id);
  if (!(await deletePosition(deps.sql, id, positionId)))
    throw new NotFoundError(`portfolio ${id} has no position ${JSON.stringify(positionId)}`);
  return deleted(positionId);
}
