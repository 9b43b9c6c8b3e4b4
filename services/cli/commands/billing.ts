import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { runDailyBilling } from '../../control/billing/billing.ts';
import { openControlPlane } from '../../control/control-plane.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { dayOf } from '../../control/billing/periods.ts';
import { dayArg, scriptFriendly } from '../control-args.ts';
import { wantsJson } from '../json-flag.ts';
import { createOutput } from '../output.ts';

export function billingCommand(program: Command): void {
  const billing = scriptFriendly(program.command('billing')).description('overage invoice lines');
  billing
    .command('run-daily')
    .description("compute each client's overage line for a UTC day (idempotent: a rerun recomputes the same line)")
    .option('--date <day>', 'UTC day YYYY-MM-DD (default: today so far)')
    .action(async (opts: { date?: string }, command: Command) => {
      const day = opts.date === undefined ? dayOf(new Date()) : dayArg('--date', opts.date);
      const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
      try {
        createOutput(wantsJson(command)).result(await runDailyBilling(sql, day), (r) =>
          r.lines.length === 0
            ? `${r.date}: no overage`
            : [`${r.date}:`, ...r.lines.map((l) => `  ${l.client_id}  ${l.credits} credits  ${l.amount_usd.toFixed(2)} USD`)].join('\n'),
        );
      } finally {
        await sql.close();
      }
    });
}
