import type { Sql } from '../../../control/db/sql.ts';
import {
  type AddedPosition,
  addPositions,
  createPortfolio,
  deletePortfolio,
  deletePosition,
  PortfolioLimitError,
  PositionLimitError,
  updatePortfolio,
} from '../../../control/portfolios/index.ts';
import { floridaToday } from '../../../domain/florida-today.ts';
import type { Registry } from '../../../domain/registry.ts';
import { InvalidParamsError, NotFoundError } from '../../errors.ts';
import { FollowLimitReachedError, LimitReachedError, PositionLimitReachedError, resourceLimit } from '../../writes/limits.ts';
import { deleted, type WriteResult } from '../../writes/respond.ts';
import { type EngineFactsDeps, holderGroupSize, loadedCertificates } from './engine-facts.ts';
import type { AddPositionsBody, CreatePortfolioBody, UpdatePortfolioBody } from './params.ts';
import { readPositionLine } from './position-line.ts';
import { certificateIdsOf, planPositions, positionsReport } from './positions-plan.ts';
import { mapPortfolio, ownPortfolio, type PortfolioOwner, portfolioNotFound } from './read.ts';
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

/**
 * A followed group must be one the certificates name, else the portfolio would follow nothing,
 * silently; and its certificates become positions, so it may hold no more than the plan lets one
 * portfolio hold.
 */
async function assertHolderGroup(deps: PortfolioWriteDeps, principal: PortfolioOwner, group: string | null | undefined): Promise<void> {
  if (group == null) return;
  const certificates = await holderGroupSize(deps, group);
  const limit = Math.min(resourceLimit('portfolio_positions', principal.plan), deps.config.PORTFOLIO_GROUP_MAX);
  if (certificates > limit) throw new FollowLimitReachedError({ group, certificates, limit, plan: principal.plan.code });
  if (certificates > 0) return;
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
  await assertHolderGroup(deps, principal, body.follow_holder_group);
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
  await assertHolderGroup(deps, principal, body.follow_holder_group);
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
  const readings = body.positions.map((line) => readPositionLine(line, deps.registry, today));
  const loaded = await loadedCertificates(deps, certificateIdsOf(readings));
  const plan = planPositions(readings, loaded);
  const limit = resourceLimit('portfolio_positions', principal.plan);
  let added: AddedPosition[] | undefined;
  try {
    added = await addPositions(deps.sql, id, plan.adding, limit, now);
  } catch (err) {
    if (err instanceof PositionLimitError)
      throw new PositionLimitReachedError({ portfolioId: id, limit, plan: principal.plan.code, held: err.held, adding: err.adding });
    throw err;
  }
  // Deleted between the ownership check and the transaction.
  if (!added) throw portfolioNotFound(id);
  return { status: 200, data: positionsReport(id, plan, added, loaded) };
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
