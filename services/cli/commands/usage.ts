import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { getClient } from '../../control/billing/clients.ts';
import { openControlPlane } from '../../control/control-plane.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { clientUsage } from '../../control/billing/usage.ts';
import { scriptFriendly } from '../control-args.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput } from '../output.ts';

export function usageCommand(program: Command): void {
  const usage = scriptFriendly(program.command('usage')).description("a client's credits: events, buckets, packs, overage");
  usage
    .command('show')
    .description("this month's usage of a client")
    .requiredOption('--client <id>', 'client id')
    .action(async (opts: { client: string }, command: Command) => {
      const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
      try {
        const client = await getClient(sql, opts.client);
        if (!client) throw new CliError(`no client ${opts.client}`);
        createOutput(wantsJson(command)).result(await clientUsage(sql, client), (u) =>
          [
            `${u.client_id}  plan ${u.plan}  status ${u.status}  subscription ${u.subscription}  month ${u.month}`,
            `events: live ${u.events.live}, test ${u.events.test}`,
            ...u.buckets.map(
              (b) => `bucket ${b.bucket} ${b.period}: ${b.remaining} of ${b.granted} left${b.capped_at ? ` (capped ${b.capped_at})` : ''}`,
            ),
            ...u.packs.map((p) => `pack ${p.id} ${p.pack}: ${p.remaining} left, ${p.expired ? 'expired' : 'expires'} ${p.expires_at}`),
            `overage credits this month: ${u.overage_credits_this_month}`,
          ].join('\n'),
        );
      } finally {
        await sql.close();
      }
    });
}
