import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { createKey, type KeyEnv, listKeys, revokeKey } from '../../control/billing/api-keys.ts';
import { getClient } from '../../control/billing/clients.ts';
import { openControlPlane } from '../../control/control-plane.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { scriptFriendly } from '../control-args.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput } from '../output.ts';

/** Operators' keys (customers make theirs on the account page, spec 5.6). The raw key is printed once. */
export function keysCommand(program: Command): void {
  const keys = scriptFriendly(program.command('keys')).description('API keys: create (shown once), revoke, list');
  keys
    .command('create')
    .description('create a key for a client; prints the raw key once')
    .requiredOption('--client <id>', 'client id')
    .option('--env <env>', 'live or test', 'live')
    .option('--name <name>', 'what the key is for, shown on the account page')
    .action(async (opts: { client: string; env: string; name?: string }, command: Command) => {
      if (opts.env !== 'live' && opts.env !== 'test') throw new CliError('--env must be live or test', 2);
      if (opts.name !== undefined && (opts.name.trim() === '' || opts.name.length > 60))
        throw new CliError('--name must be 1 to 60 characters', 2);
      const config = loadConfig();
      const sql = await openControlPlane(config, { registry: loadRegistry() });
      try {
        if (!(await getClient(sql, opts.client))) throw new CliError(`no client ${opts.client}`);
        const { key, raw } = await createKey(sql, {
          clientId: opts.client,
          env: opts.env as KeyEnv,
          name: opts.name?.trim(),
          prefix: config.KEY_PREFIX,
          secret: config.KEY_HASH_SECRET,
        });
        createOutput(wantsJson(command)).result(
          { id: key.id, key: raw },
          (r) => `${r.id}\n${r.key}\nStore this key now: it is shown only once and cannot be recovered.`,
        );
      } finally {
        await sql.close();
      }
    });
  keys
    .command('revoke <keyId>')
    .description('revoke a key; its next request is a 401')
    .action(async (keyId: string, _opts: unknown, command: Command) => {
      const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
      try {
        const key = await revokeKey(sql, keyId);
        if (!key) throw new CliError(`no key ${keyId}`);
        createOutput(wantsJson(command)).result(key, (k) => `${k.id} revoked at ${k.revokedAt}`);
      } finally {
        await sql.close();
      }
    });
  keys
    .command('list')
    .description("a client's keys (ids and last four characters; never the key)")
    .requiredOption('--client <id>', 'client id')
    .action(async (opts: { client: string }, command: Command) => {
      const sql = await openControlPlane(loadConfig(), { registry: loadRegistry() });
      try {
        if (!(await getClient(sql, opts.client))) throw new CliError(`no client ${opts.client}`);
        const rows = await listKeys(sql, opts.client);
        createOutput(wantsJson(command)).result({ client_id: opts.client, keys: rows }, (r) =>
          r.keys.length === 0
            ? 'no keys'
            : r.keys
                .map((k) => `${k.id}  ${k.env}  ...${k.hint}  created ${k.createdAt}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`)
                .join('\n'),
        );
      } finally {
        await sql.close();
      }
    });
}
