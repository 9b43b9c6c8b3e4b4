import type { Sql } from '../db/sql.ts';

/**
 * Daily overage billing (spec 8.4): one invoice line per client and UTC day holding
 * that day's overage credits at 0.005 USD each, rounded up once to the next 0.05 USD.
 * The line is recomputed from the ledger in place, so running a day twice gives the
 * same line and a credit is billed on exactly one day (the day of its ledger row).
 */

/** 0.5 cent a credit, rounded up to 5 cents: ceil(credits / 10) * 5 cents. */
export function overageAmountCents(credits: number): number {
  if (credits <= 0) return 0;
  return Math.ceil(credits / 10) * 5;
}

export interface InvoiceLine {
  client_id: string;
  credits: number;
  amount_usd: number;
}

export async function runDailyBilling(sql: Sql, day: string, now = new Date()): Promise<{ date: string; lines: InvoiceLine[] }> {
  const lines = await sql.transaction(async (tx) => {
    const totals = await tx.all<{ client_id: string; credits: number }>(
      `SELECT client_id, sum(amount) AS credits FROM credit_ledger
       WHERE bucket = 'overage' AND period = ? GROUP BY client_id ORDER BY client_id`,
      [day],
    );
    for (const t of totals)
      await tx.run(
        `INSERT INTO overage_invoice_lines (client_id, day, credits, amount_usd_cents, computed_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (client_id, day) DO UPDATE SET credits = excluded.credits,
           amount_usd_cents = excluded.amount_usd_cents, computed_at = excluded.computed_at`,
        [t.client_id, day, Math.max(0, t.credits), overageAmountCents(t.credits), now.toISOString()],
      );
    return tx.all<{ client_id: string; credits: number; cents: number }>(
      `SELECT client_id, credits, amount_usd_cents AS cents FROM overage_invoice_lines
       WHERE day = ? AND credits > 0 ORDER BY client_id`,
      [day],
    );
  });
  return { date: day, lines: lines.map((l) => ({ client_id: l.client_id, credits: l.credits, amount_usd: l.cents / 100 })) };
}

/**
 * A client's overage so far in `month` (YYYY-MM): its credits, and what they are billed as
 * daily billing bills them, each UTC day rounded up on its own (so this equals the sum of the
 * month's invoice lines once run-daily has run for every day).
 */
export async function monthOverage(sql: Sql, clientId: string, month: string): Promise<{ credits: number; amountUsdCents: number }> {
  const days = await sql.all<{ credits: number }>(
    `SELECT sum(amount) AS credits FROM credit_ledger
     WHERE client_id = ? AND bucket = 'overage' AND period LIKE ? GROUP BY period`,
    [clientId, `${month}-%`],
  );
  return {
    credits: days.reduce((n, d) => n + Math.max(0, d.credits), 0),
    amountUsdCents: days.reduce((n, d) => n + overageAmountCents(d.credits), 0),
  };
}
