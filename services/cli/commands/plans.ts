import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { openControlPlane } from '../../control/control-plane.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { listPlans, type Plan, setPlan } from '../../control/billing/plans.ts';
import { countArg, planArg, scriptFriendly } from '../control-args.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput } from '../output.ts';

const line = (p: Plan) =>
  `${p.code.padEnd(12)} ${String(p.monthlyCredits).padStart(11)} credits  ${String(p.rpm).padStart(6)} rpm  ` +
  `rest ${p.rest ? 'yes' : 'no '}  mcp ${p.mcp ? 'yes' : 'no '}  csv ${p.csv ? 'yes' : 'no '}  webhooks ${p.webhooks.padEnd(8)}  ` +
  `${p.priceUsdCents === null ? 'custom' : `${(p.priceUsdCents / 100).toFixed(2)} USD/month`}`;

export function plansCommand(program: Command): void {
  const plans = scriptFriendly(program.command('plans')).description('plans: monthly credits, RPM and features');
  plans
    .command('list')
    .description('every plan with its numbers and flags')
    .action(async (_opts: unknown, command: Command) => {
      const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
      try {
        createOutput(wantsJson(command)).result({ plans: await listPlans(sql) }, (r) => r.plans.map(line).join('\n'));
      } finally {
        await sql.close();
      }
    });
  plans
    .command('set <plan>')
    .description("change a plan's monthly credits or RPM; the running server applies it from its next request")
    .option('--monthly-credits <n>', 'monthly credit grant')
    .option('--rpm <n>', 'requests per minute')
    .action(async (code: string, opts: { monthlyCredits?: string; rpm?: string }, command: Command) => {
      const plan = planArg(code);
      const monthlyCredits = opts.monthlyCredits === undefined ? undefined : countArg('--monthly-credits', opts.monthlyCredits, 0);
      const rpm = opts.rpm === undefined ? undefined : countArg('--rpm', opts.rpm, 1);
      if (monthlyCredits === undefined && rpm === undefined) throw new CliError('nothing to change: give --monthly-credits or --rpm', 2);
      const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
      try {
        createOutput(wantsJson(command)).result(await setPlan(sql, plan, { monthlyCredits, rpm }), line);
      } finally {
        await sql.close();
      }
    });
}
