import type { Command } from 'commander';
import { mapDelivery, mapEndpoint } from '../../api/routes/webhook-endpoints/map-row.ts';
import type { WebhookEndpointRow } from '../../api/routes/webhook-endpoints/row.ts';
import { type Config, loadConfig } from '../../config.ts';
import { openControlPlane } from '../../control/control-plane.ts';
import { parseEventId } from '../../control/feed/events.ts';
import type { Sql } from '../../control/db/sql.ts';
import {
  DELIVERY_STATUSES,
  type DeliveryStatus,
  listDeliveries,
  ReplayError,
  type ReplayScope,
  replay,
} from '../../control/feed/webhook-deliveries.ts';
import { ReplayLimitError } from '../../control/feed/webhook-replay-budget.ts';
import { checkClientEndpointInput } from '../../control/feed/webhook-endpoint-input.ts';
import {
  createEndpoint,
  deleteEndpoint,
  EndpointLimitError,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  setEndpointStatus,
  UnknownClientError,
  type WebhookEndpoint,
  WebhooksNotInPlanError,
} from '../../control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../control/feed/webhook-secrets.ts';
import { loadRegistry, type Registry } from '../../domain/registry.ts';
import { addressPolicy } from '../../domain/webhook-address.ts';
import { countArg, instantArg, scriptFriendly } from '../control-args.ts';
import { findCounty } from '../county-arg.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput, USAGE_EXIT } from '../output.ts';

/**
 * Webhook endpoints, for operators (customers manage their own on the account page): create
 * (the signing secret is printed once), list, disable, enable, delete, rotate-secret, deliveries and replay. Replays
 * are written to the database; the running worker sends them.
 */

const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** Opens the database for one command and closes it whatever happens. */
async function withDatabase<T>(run: (sql: Sql, config: Config, registry: Registry) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const registry = loadRegistry();
  const sql = await openControlPlane(config, { registry });
  try {
    return await run(sql, config, registry);
  } finally {
    await sql.close();
  }
}

async function requireEndpoint(sql: Sql, id: string): Promise<WebhookEndpoint> {
  const endpoint = await getEndpoint(sql, id);
  if (!endpoint) throw new CliError(`no webhook endpoint ${id}`, 1, 'not_found');
  return endpoint;
}

/** The control plane's typed refusals as CLI errors with their own codes. */
function asCliError(err: unknown): never {
  if (err instanceof WebhooksNotInPlanError) throw new CliError(err.message, 1, err.code);
  if (err instanceof UnknownClientError) throw new CliError(err.message, 1, 'not_found');
  if (err instanceof EndpointLimitError) throw new CliError(err.message, 1, err.code);
  if (err instanceof ReplayError) throw new CliError(err.message, 1, err.code);
  if (err instanceof ReplayLimitError) throw new CliError(`the client's ${err.message}`, 1, err.code);
  throw err;
}

const endpointLine = (e: WebhookEndpointRow) =>
  `${e.id}  ${e.status}${e.disabled_reason ? ` (${e.disabled_reason})` : ''}  ${e.url}  types: ${e.types?.join(',') ?? 'all'}  counties: ${e.counties?.join(',') ?? 'all'}  saved searches: ${e.saved_searches?.join(',') ?? 'all'}`;

export function webhooksCommand(program: Command): void {
  const webhooks = scriptFriendly(program.command('webhooks')).description(
    'webhook endpoints: create (secret shown once), list, disable, enable, delete, rotate-secret, deliveries, replay',
  );

  webhooks
    .command('create')
    .description('create an endpoint for a client; prints it with its signing secret, once')
    .requiredOption('--client <id>', 'client id (its plan must include webhooks)')
    .requiredOption('--url <url>', 'http or https URL the events are POSTed to')
    .option('--types <list>', 'comma-separated event types (default: every type)')
    .option('--counties <list>', 'comma-separated counties, by slug or name (default: every county)')
    .option('--saved-searches <list>', "comma-separated ids of the client's saved searches whose events it receives (default: all of them)")
    .action(async (opts: { client: string; url: string; types?: string; counties?: string; savedSearches?: string }, command: Command) => {
      return withDatabase(async (sql, config, registry) => {
        // A county as a person types it ("Miami-Dade", "st johns") becomes its slug; an unknown one stays as typed and is refused below.
        const counties =
          opts.counties === undefined ? undefined : list(opts.counties).map((c) => findCounty(registry.counties, c)?.slug ?? c);
        const checked = await checkClientEndpointInput(
          sql,
          opts.client,
          {
            url: opts.url,
            types: opts.types === undefined ? undefined : list(opts.types),
            counties,
            savedSearches: opts.savedSearches === undefined ? undefined : list(opts.savedSearches),
          },
          { registry, policy: addressPolicy(config.NODE_ENV) },
        );
        if (!checked.ok) {
          const first = checked.problems[0]!;
          throw new CliError(`--${first.field.replaceAll('_', '-')}: ${first.problem}`, USAGE_EXIT);
        }
        let made: Awaited<ReturnType<typeof createEndpoint>>;
        try {
          made = await createEndpoint(sql, createSecretBox(config.WEBHOOK_SECRET_KEY), { clientId: opts.client, ...checked.value });
        } catch (err) {
          asCliError(err);
        }
        const beta = made.plan === 'beta';
        createOutput(wantsJson(command)).result({ ...mapEndpoint(made.endpoint), secret: made.secret, beta }, (r) =>
          [
            endpointLine(r),
            r.secret,
            'Store this signing secret now: it is shown only once. Verify deliveries with it (Standard Webhooks).',
            ...(beta ? ['Webhooks are in beta on the Pro plan.'] : []),
          ].join('\n'),
        );
      });
    });

  webhooks
    .command('list')
    .description("a client's endpoints (never their secrets)")
    .requiredOption('--client <id>', 'client id')
    .action(async (opts: { client: string }, command: Command) => {
      return withDatabase(async (sql) => {
        const rows = (await listEndpoints(sql, opts.client)).map(mapEndpoint);
        createOutput(wantsJson(command)).result({ client_id: opts.client, endpoints: rows }, (r) =>
          r.endpoints.length === 0 ? 'no webhook endpoints' : r.endpoints.map(endpointLine).join('\n'),
        );
      });
    });

  webhooks
    .command('disable <id>')
    .description('stop delivering to an endpoint (deliveries that come due meanwhile fail; replay sends them later)')
    .action(async (id: string, _opts: unknown, command: Command) => {
      return withDatabase(async (sql) => {
        await requireEndpoint(sql, id);
        const endpoint = (await setEndpointStatus(sql, id, { status: 'disabled', reason: 'operator' }))!;
        createOutput(wantsJson(command)).result(mapEndpoint(endpoint), endpointLine);
      });
    });

  webhooks
    .command('enable <id>')
    .description('deliver to an endpoint again (events recorded while it was disabled need a replay)')
    .action(async (id: string, _opts: unknown, command: Command) => {
      return withDatabase(async (sql) => {
        await requireEndpoint(sql, id);
        const endpoint = (await setEndpointStatus(sql, id, { status: 'enabled' }))!;
        createOutput(wantsJson(command)).result(mapEndpoint(endpoint), endpointLine);
      });
    });

  webhooks
    .command('delete <id>')
    .description('delete an endpoint with its deliveries and attempts')
    .action(async (id: string, _opts: unknown, command: Command) => {
      return withDatabase(async (sql) => {
        if (!(await deleteEndpoint(sql, id))) throw new CliError(`no webhook endpoint ${id}`, 1, 'not_found');
        createOutput(wantsJson(command)).result({ id, deleted: true }, (r) => `${r.id} deleted`);
      });
    });

  webhooks
    .command('rotate-secret <id>')
    .description('a new signing secret, printed once; the old one keeps signing beside it for 24 hours')
    .action(async (id: string, _opts: unknown, command: Command) => {
      return withDatabase(async (sql, config) => {
        await requireEndpoint(sql, id);
        const rotated = (await rotateSecret(sql, createSecretBox(config.WEBHOOK_SECRET_KEY), id))!;
        createOutput(wantsJson(command)).result({ ...mapEndpoint(rotated.endpoint), secret: rotated.secret }, (r) =>
          [
            endpointLine(r),
            r.secret,
            'Store this signing secret now: it is shown only once. The previous one stays valid for 24 hours.',
          ].join('\n'),
        );
      });
    });

  webhooks
    .command('deliveries <id>')
    .description("an endpoint's deliveries, newest first, with every attempt")
    .option('--status <status>', `only ${DELIVERY_STATUSES.join(', ')}`)
    .option('--event <evt_id>', 'only the delivery of this event')
    .option('--limit <n>', 'deliveries shown', '25')
    .option('--offset <n>', 'deliveries skipped', '0')
    .action(async (id: string, opts: { status?: string; event?: string; limit: string; offset: string }, command: Command) => {
      if (opts.status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(opts.status))
        throw new CliError(`--status must be one of ${DELIVERY_STATUSES.join(', ')}`, USAGE_EXIT);
      const eventId = opts.event === undefined ? undefined : eventArg(opts.event);
      const limit = countArg('--limit', opts.limit, 1);
      const offset = countArg('--offset', opts.offset, 0);
      return withDatabase(async (sql) => {
        await requireEndpoint(sql, id);
        const { rows, total } = await listDeliveries(sql, id, {
          status: opts.status as DeliveryStatus | undefined,
          eventId,
          limit,
          offset,
        });
        createOutput(wantsJson(command)).result({ endpoint_id: id, total, deliveries: rows.map(mapDelivery) }, (r) =>
          r.deliveries.length === 0
            ? 'no deliveries'
            : [
                `${r.total} deliver${r.total === 1 ? 'y' : 'ies'}`,
                ...r.deliveries.flatMap((d) => [
                  `${d.id}  ${d.event_id}  ${d.event_type}  ${d.status}  ${d.attempts} attempt(s)${d.next_attempt_at ? `  next ${d.next_attempt_at}` : ''}`,
                  ...d.attempt_log.map(
                    (a) =>
                      `    #${a.attempt}${a.replay > 0 ? ` (replay ${a.replay})` : ''} ${a.started_at} ${a.duration_ms}ms ${a.http_status ?? a.error}`,
                  ),
                ]),
              ].join('\n'),
        );
      });
    });

  webhooks
    .command('replay <id>')
    .description('send again one event (--event) or every event of a time range (--from, --to) to an endpoint')
    .option('--event <evt_id>', 'the event to send again')
    .option('--from <iso>', 'events recorded at or after this time')
    .option('--to <iso>', 'events recorded before this time (default: now)')
    .action(async (id: string, opts: { event?: string; from?: string; to?: string }, command: Command) => {
      if ((opts.event === undefined) === (opts.from === undefined))
        throw new CliError('give either --event evt_<id> or --from <time> (with --to, optionally)', USAGE_EXIT);
      if (opts.event !== undefined && opts.to !== undefined) throw new CliError('--to goes with --from, not with --event', USAGE_EXIT);
      let scope: ReplayScope;
      if (opts.event !== undefined) scope = { eventId: eventArg(opts.event) };
      else {
        const from = instantArg('--from', opts.from!).toISOString();
        const to = (opts.to === undefined ? new Date() : instantArg('--to', opts.to)).toISOString();
        if (from >= to) throw new CliError('--from must be before --to', USAGE_EXIT);
        scope = { from, to };
      }
      return withDatabase(async (sql, config) => {
        const endpoint = await requireEndpoint(sql, id);
        let queued = 0;
        try {
          queued = await replay(sql, endpoint, scope, { perMinute: config.WEBHOOK_REPLAYS_PER_MINUTE });
        } catch (err) {
          asCliError(err);
        }
        createOutput(wantsJson(command)).result(
          { endpoint_id: id, queued },
          (r) => `${r.queued} deliver${r.queued === 1 ? 'y' : 'ies'} queued for ${r.endpoint_id}; the worker sends them`,
        );
      });
    });
}

function eventArg(value: string): number {
  const id = parseEventId(value);
  if (id === null) throw new CliError(`--event must be an event id such as evt_123, not ${JSON.stringify(value)}`, USAGE_EXIT);
  return id;
}
