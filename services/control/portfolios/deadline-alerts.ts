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
