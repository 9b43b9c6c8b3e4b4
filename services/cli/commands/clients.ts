import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { type ClientChange, createClient, getClient, reactivateClient, setClient, suspendClient } from '../../control/billing/clients.ts';
import { openControlPlane } from '../../control/control-plane.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { countArg, instantArg, planArg, scriptFriendly, statusArg, subscriptionArg } from '../control-args.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput } from '../output.ts';

export function clientsCommand(program: Command): void {
  const clients = scriptFriendly(program.command('clients')).description('API clients (workspaces): plan, status, subscription');
  clients
    .command('create')
    .description('create a client; prints its id')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--plan <plan>', 'free_trial, developer, pro, growth, lead_feed, enterprise or mcp_starter')
    .option('--created-at <iso>', 'signup time (backdates a free trial)')
    .action(async (opts: { name: string; plan: string; createdAt?: string }, command: Command) => {
      const plan = planArg(opts.plan);
      const createdAt = opts.createdAt === undefined ? undefined : instantArg('--created-at', opts.createdAt);
      if (opts.name.trim() === '') throw new CliError('--name must not be empty', 2);
      const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
      try {
        const client = await createClient(sql, { name: opts.name, plan, createdAt });
        createOutput(wantsJson(command)).result({ id: client.id }, (r) => r.id);
      } finally {
        await sql.close();
      }
    });
  clients
    .command('set <id>')
    .description('change a client; the running server applies it from its next request')
    .option('--plan <plan>', 'new plan')
    .option('--status <status>', 'active, suspended or closed')
    .option('--subscription <status>', 'active or past_due')
    .option('--monthly-credits <n>', 'contract quota (Enterprise)')
    .option('--rpm <n>', 'contract requests per minute (Enterprise)')
    .action(
      async (
        id: string,
        opts: { plan?: string; status?: string; subscription?: string; monthlyCredits?: string; rpm?: string },
        command: Command,
      ) => {
        const change: ClientChange = {
          plan: opts.plan === undefined ? undefined : planArg(opts.plan),
          status: opts.status === undefined ? undefined : statusArg(opts.status),
          subscription: opts.subscription === undefined ? undefined : subscriptionArg(opts.subscription),
          monthlyCredits: opts.monthlyCredits === undefined ? undefined : countArg('--monthly-credits', opts.monthlyCredits, 0),
          rpm: opts.rpm === undefined ? undefined : countArg('--rpm', opts.rpm, 1),
        };
        if (Object.values(change).every((v) => v === undefined))
          throw new CliError('nothing to change: give --plan, --status, --subscription, --monthly-credits or --rpm', 2);
        const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
        try {
          if (!(await getClient(sql, id))) throw new CliError(`no client ${id}`);
          const client = (await setClient(sql, id, change))!;
          createOutput(wantsJson(command)).result(
            client,
            (c) => `${c.id}: plan ${c.plan}, status ${c.status}, subscription ${c.subscription}`,
          );
        } finally {
          await sql.close();
        }
      },
    );
  clients
    .command('suspend <id>')
    .description('suspend a client: its keys are refused from the next request; its users can sign in and read the reason')
    .requiredOption('--reason <text>', "shown to the client's users on the account page")
    .action(async (id: string, opts: { reason: string }, command: Command) => {
      const reason = opts.reason.trim();
      if (reason === '' || reason.length > 500) throw new CliError('--reason must be 1 to 500 characters', 2);
      const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
      try {
        if (!(await getClient(sql, id))) throw new CliError(`no client ${id}`);
        const client = (await suspendClient(sql, id, reason))!;
        createOutput(wantsJson(command)).result(client, (c) => `${c.id}: suspended (${c.statusReason})`);
      } finally {
        await sql.close();
      }
    });
  clients
    .command('reactivate <id>')
    .description('make a suspended or closed client active again; its keys work from the next request')
    .action(async (id: string, _opts: unknown, command: Command) => {
      const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
      try {
        if (!(await getClient(sql, id))) throw new CliError(`no client ${id}`);
        const client = (await reactivateClient(sql, id))!;
        createOutput(wantsJson(command)).result(client, (c) => `${c.id}: active`);
      } finally {
        await sql.close();
      }
    });
}
