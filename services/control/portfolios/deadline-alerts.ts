import type { Sql } from '../db/sql.ts';
import { appendEvents, type DeadlineData, type EventInput } from '../feed/events.ts';

/**
 * The deadline alerts' side of the control plane (migration 029): the positions to look at, a page
 * at a time, and the alerts recorded once each. portfolio_alerts_sent's key (position, kind,
 * horizon) is the once-only rule: its row and the event are written in one transaction, so a second
 * run or a second worker seeing the same day finds the row and records nothing.
 */

export interface AlertPosition {
  positionId: string;
  certificateId: string;
  portfolioId: string;
  portfolioName: string;
  clientId: string;
}

/** Positions after the id, in id order, with their portfolio and its client. */
export async function alertPositionsAfter(sql: Sql, afterId: string, limit: number): Promise<AlertPosition[]> {
  return sql.all<AlertPosition>(
    `SELECT p.id AS "positionId", p.certificate_id AS "certificateId", f.id AS "portfolioId", f.name AS "portfolioName", f.client_id AS "clientId"
     FROM portfolio_positions p JOIN portfolios f ON f.id = p.portfolio_id WHERE p.id > ? ORDER BY p.id LIMIT ?`,
    [afterId, limit],
  );
}

export interface DeadlineAlertInput {
  positionId: string;
  horizon: number;
  event: EventInput<DeadlineData>;
}

/**
 * Records the alerts not sent before, in one transaction; returns those recorded. A position
 * removed since it was read (its row gone) records nothing.
 */
export async function recordDeadlineAlerts(sql: Sql, alerts: readonly DeadlineAlertInput[]): Promise<DeadlineAlertInput[]> {
  if (alerts.length === 0) return [];
  return sql.transaction(async (tx) => {
    const recorded: DeadlineAlertInput[] = [];
    for (const a of alerts) {
      const claimed = await tx.run(
        `INSERT INTO portfolio_alerts_sent (position_id, kind, horizon_days, deadline, event_id)
         SELECT id, ?, ?, ?, 0 FROM portfolio_positions WHERE id = ?
         ON CONFLICT (position_id, kind, horizon_days) DO NOTHING`,
        [a.event.data.kind, a.horizon, a.event.data.date, a.positionId],
      );
      if (claimed.changes === 0) continue;
      const [eventId] = await appendEvents(tx, [a.event]);
      await tx.run('UPDATE portfolio_alerts_sent SET event_id = ? WHERE position_id = ? AND kind = ? AND horizon_days = ?', [
        eventId,
        a.positionId,
        a.event.data.kind,
        a.horizon,
      ]);
      recorded.push(a);
    }
    return recorded;
  });
}

/** A portfolio that follows a holder group, with what its alerts name. */
export interface FollowingPortfolio {
  portfolioId: string;
  portfolioName: string;
  clientId: string;
  group: string;
}

export async function followingPortfolios(sql: Sql): Promise<FollowingPortfolio[]> {
  return sql.all<FollowingPortfolio>(
    `SELECT id AS "portfolioId", name AS "portfolioName", client_id AS "clientId", follow_holder_group AS "group"
     FROM portfolios WHERE follow_holder_group IS NOT NULL ORDER BY id`,
  );
}

export interface GroupAlertInput extends DeadlineAlertInput {
  certificateId: string;
  group: string;
}

/**
 * Records the alerts of followed certificates not sent before, in one transaction; returns those
 * recorded. A portfolio that stopped following the group meanwhile records nothing, and neither
 * does a certificate the portfolio also holds as a written position (that position has its own).
 */
export async function recordGroupDeadlineAlerts(sql: Sql, alerts: readonly GroupAlertInput[]): Promise<GroupAlertInput[]> {
  if (alerts.length === 0) return [];
  return sql.transaction(async (tx) => {
    const recorded: GroupAlertInput[] = [];
    for (const a of alerts) {
      const portfolioId = a.event.data.portfolio.id;
      const claimed = await tx.run(
        `INSERT INTO portfolio_group_alerts_sent (portfolio_id, certificate_id, kind, horizon_days, deadline, event_id)
         SELECT id, ?, ?, ?, ?, 0 FROM portfolios f WHERE f.id = ? AND f.follow_holder_group = ?
           AND NOT EXISTS (SELECT 1 FROM portfolio_positions p WHERE p.portfolio_id = f.id AND p.certificate_id = ?)
         ON CONFLICT (portfolio_id, certificate_id, kind, horizon_days) DO NOTHING`,
        [a.certificateId, a.event.data.kind, a.horizon, a.event.data.date, portfolioId, a.group, a.certificateId],
      );
      if (claimed.changes === 0) continue;
      const [eventId] = await appendEvents(tx, [a.event]);
      await tx.run(
        'UPDATE portfolio_group_alerts_sent SET event_id = ? WHERE portfolio_id = ? AND certificate_id = ? AND kind = ? AND horizon_days = ?',
        [eventId, portfolioId, a.certificateId, a.event.data.kind, a.horizon],
      );
      recorded.push(a);
    }
    return recorded;
  });
}
