import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { getClient } from '../../control/billing/clients.ts';
import { openControlPlane } from '../../control/control-plane.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { grantPack, isPackName, PACK_NAMES } from '../../control/billing/packs.ts';
import { instantArg, scriptFriendly } from '../control-args.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput } from '../output.ts';

export function packsCommand(program: Command): void {
  const packs = scriptFriendly(program.command('packs')).description('one-time credit packs (valid 12 months)');
  packs
    .command('grant')
    .description('record a pack purchase for a client')
    .requiredOption('--client <id>', 'client id')
    .requiredOption('--pack <pack>', PACK_NAMES.join(', '))
    .option('--purchased-at <iso>', 'purchase time (default now); the pack expires 12 months later')
    .action(async (opts: { client: string; pack: string; purchasedAt?: string }, command: Command) => {
      if (!isPackName(opts.pack)) throw new CliError(`unknown pack "${opts.pack}": one of ${PACK_NAMES.join(', ')}`, 2);
      const purchasedAt = opts.purchasedAt === undefined ? undefined : instantArg('--purchased-at', opts.purchasedAt);
      const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
      try {
        if (!(await getClient(sql, opts.client))) throw new CliError(`no client ${opts.client}`);
        const pack = await grantPack(sql, { clientId: opts.client, pack: opts.pack, purchasedAt });
        createOutput(wantsJson(command)).result(
          pack,
          (p) => `${p.id}: ${p.credits} credits (${p.pack}) for ${p.clientId}, expires ${p.expiresAt}`,
        );
      } finally {
        await sql.close();
      }
    });
}
