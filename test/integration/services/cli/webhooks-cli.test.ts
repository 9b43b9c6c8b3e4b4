// @module-tag postgres
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookWorker } from '../../../../indexer/webhooks/worker.ts';
import { createClient } from '../../../../services/control/billing/clients.ts';
import { appendEvents, type EventInput, publicEventId } from '../../../../services/control/feed/events.ts';
import { createSavedSearch } from '../../../../services/control/feed/saved-searches.ts';
import { listDeliveries, replay } from '../../../../services/control/feed/webhook-deliveries.ts';
import { createEndpoint, setEndpointStatus, signingSecrets } from '../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../services/control/feed/webhook-secrets.ts';
import { type CliSuite, childEnv, openCliSuite, runCli } from '../../../helpers/cli.ts';
import { type Receiver, startReceiver } from '../../../helpers/webhook-receiver.ts';
import { until } from '../../../helpers/until.ts';

// `taxcert webhooks ...`, the forms and --json documents scripts depend on.

let suite: CliSuite;
let env: NodeJS.ProcessEnv;
const receivers: Receiver[] = [];

beforeAll(async () => {
  suite = await openCliSuite(import.meta.url, 'taxcert-webhooks-cli-');
  // Debug logs, so a secret that reached the logger at any level would be seen on stderr.
  env = childEnv(suite.t.config, { LOG_LEVEL: 'debug', WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '100ms' });
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await suite.close();
});

const cli = async (...args: string[]) => {
  const r = await runCli(args, env);
  return { ...r, json: () => JSON.parse(r.stdout) };
};
const client = async (plan: Parameters<typeof createClient>[1]['plan']) =>
  (await createClient(suite.t.runtime.sql, { name: `cli ${plan}`, plan })).id;
/**
 * An endpoint made through the control plane, for the tests of the other verbs: `webhooks create`
 * has its own tests above, and each CLI run is a process start (about a second of CPU).
 */
const endpointOf = async (plan: Parameters<typeof createClient>[1]['plan'], url: string, counties: string[] | null = null) =>
  createEndpoint(suite.t.runtime.sql, createSecretBox(suite.t.config.WEBHOOK_SECRET_KEY), {
    clientId: await client(plan),
    url,
    types: null,
    counties,
  });
/** Deliveries of an endpoint in a status, read from the control plane (for waiting; the CLI's own listing is asserted). */
const deliveredCount = async (endpointId: string) =>
  (await listDeliveries(suite.t.runtime.sql, endpointId, { limit: 100, offset: 0 })).rows.filter((d) => d.status === 'delivered').length;

describe('taxcert webhooks create', () => {
  it('prints the endpoint with its id and its secret, once; list, the logs and the database file never hold it', async () => {
    const id = await client('growth');
    const search = await createSavedSearch(suite.t.runtime.sql, { clientId: id, name: 'lee', params: { county: ['lee'] }, limit: 10 });
    const made = await cli(
      'webhooks',
      'create',
      '--client',
      id,
      '--url',
      'http://127.0.0.1:4000/hooks',
      '--types',
      'certificate.redeemed,certificate.cancelled',
      '--counties',
      'Miami-Dade,st johns',
      '--saved-searches',
      search.id,
      '--json',
    );
    expect(made.code, made.stderr).toBe(0);
    const endpoint = made.json();
    expect(Object.keys(endpoint)).toEqual([
      'id',
      'url',
      'types',
      'counties',
      'saved_searches',
      'status',
      'disabled_reason',
      'disabled_at',
      'secret_rotated_at',
      'created_at',
      'secret',
      'beta',
    ]);
    expect(endpoint).toMatchObject({
      id: expect.stringMatching(/^whe_[A-Za-z0-9_-]{16}$/),
      url: 'http://127.0.0.1:4000/hooks',
      types: ['certificate.cancelled', 'certificate.redeemed'],
      counties: ['miami-dade', 'st-johns'],
      saved_searches: [search.id],
      status: 'enabled',
      disabled_reason: null,
      beta: false,
    });
    const secret: string = endpoint.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(made.stderr).not.toContain(secret);

    const listed = await cli('webhooks', 'list', '--client', id, '--json');
    expect(listed.json().endpoints).toEqual([expect.objectContaining({ id: endpoint.id })]);
    expect(listed.stdout + listed.stderr).not.toContain(secret.slice(6, 30));

    // At rest the secret is sealed: neither its text nor its bytes are in the SQLite files.
    const key = Buffer.from(secret.slice(6), 'base64');
    for (const file of [suite.t.config.DATABASE_PATH, `${suite.t.config.DATABASE_PATH}-wal`].filter(existsSync)) {
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(secret.slice(6, 30))), file).toBe(false);
      expect(bytes.includes(key), file).toBe(false);
    }
    // ... and it opens only with the configured key.
    expect(await signingSecrets(suite.t.runtime.sql, createSecretBox(suite.t.config.WEBHOOK_SECRET_KEY), endpoint.id)).toEqual([secret]);
  });

  it('says webhooks are in beta on Pro', async () => {
    const made = await cli('webhooks', 'create', '--client', await client('pro'), '--url', 'https://example.com/hooks');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(
      /^whe_\S+ {2}enabled {2}https:\/\/example\.com\/hooks {2}types: all {2}counties: all {2}saved searches: all\nwhsec_/,
    );
    expect(made.stdout).toContain('Webhooks are in beta on the Pro plan.');
  });

  it.each(['free_trial', 'developer', 'mcp_starter'] as const)('is refused on the %s plan, naming the plan', async (plan) => {
    const r = await cli('webhooks', 'create', '--client', await client(plan), '--url', 'https://example.com/hooks', '--json');
    expect(r.code).toBe(1);
    expect(r.json().error).toEqual({
      code: 'webhooks_disabled',
      message: expect.stringContaining(`the ${plan} plan does not include webhooks`),
    });
  });

  it.each([
    [
      ['--types', 'certificate.redeemed,certificate.exploded'],
      /^--types: unknown event type "certificate\.exploded"; one of certificate\.created, /,
    ],
    [['--types', ','], /^--types: must name at least one event type/],
    [['--counties', 'atlantis'], /^--counties: unknown county slug "atlantis"/],
    [['--saved-searches', 'ss_nope'], /^--saved-searches: unknown saved search "ss_nope"/],
    [['--url', 'ftp://example.com/x'], /^--url: must use http or https, not ftp$/],
    [['--url', 'https://u:p@example.com/'], /^--url: must not carry a user name or password$/],
    [['--url', 'http://10.1.2.3/'], /^--url: must not point at a private address \(10\.1\.2\.3\)$/],
  ])('refuses %j as a usage error naming the flag', async (extra, message) => {
    const args = ['webhooks', 'create', '--client', await client('enterprise'), '--url', 'https://example.com/hooks', ...extra, '--json'];
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.json().error.code).toBe('usage_error');
    expect(r.json().error.message).toMatch(message);
  });

  it('for an unknown client is a not_found error', async () => {
    const r = await cli('webhooks', 'create', '--client', 'cli_nobody', '--url', 'https://example.com/hooks', '--json');
    expect(r.code).toBe(1);
    expect(r.json().error).toEqual({ code: 'not_found', message: 'no client cli_nobody' });
  });
});

describe('taxcert webhooks disable | enable | rotate-secret | delete', () => {
  it('change the endpoint and say so; a rotated secret is new, printed once, and the old one signs beside it for a day', async () => {
    const made = await endpointOf('lead_feed', 'https://example.com/h');
    const { id: endpointId, clientId: id } = made.endpoint;
    const { secret } = made;

    const disabled = await cli('webhooks', 'disable', endpointId, '--json');
    expect(disabled.json()).toMatchObject({
      id: endpointId,
      status: 'disabled',
      disabled_reason: 'operator',
      disabled_at: expect.any(String),
    });
    const enabled = await cli('webhooks', 'enable', endpointId, '--json');
    expect(enabled.json()).toMatchObject({ status: 'enabled', disabled_reason: null, disabled_at: null });

    const rotated = await cli('webhooks', 'rotate-secret', endpointId, '--json');
    expect(rotated.code).toBe(0);
    const fresh: string = rotated.json().secret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect(rotated.json().secret_rotated_at).toEqual(expect.any(String));
    expect(rotated.stderr).not.toContain(fresh);
    expect(await signingSecrets(suite.t.runtime.sql, createSecretBox(suite.t.config.WEBHOOK_SECRET_KEY), endpointId)).toEqual([
      fresh,
      secret,
    ]);

    expect((await cli('webhooks', 'delete', endpointId, '--json')).json()).toEqual({ id: endpointId, deleted: true });
    expect((await cli('webhooks', 'list', '--client', id, '--json')).json().endpoints).toEqual([]);
    for (const verb of ['delete', 'disable', 'enable', 'rotate-secret', 'deliveries']) {
      const r = await cli('webhooks', verb, endpointId, '--json');
      expect(r.code, verb).toBe(1);
      expect(r.json().error, verb).toEqual({ code: 'not_found', message: `no webhook endpoint ${endpointId}` });
    }
  });
});

describe('taxcert webhooks deliveries and replay, with the worker running', () => {
  let worker: ReturnType<typeof startWebhookWorker>;
  beforeAll(() => {
    worker = startWebhookWorker({ ...suite.t.runtime, config: { ...suite.t.runtime.config, WEBHOOK_POLL_MS: 50 } }, { concurrency: 4 });
  });
  afterAll(() => worker.close());

  const event = (county: string): EventInput => ({
    type: 'certificate.redeemed',
    countySlug: county,
    data: { object: { id: `cert_${county}` }, previous: { status: 'sold' } },
  });

  it('lists every delivery with its attempts, and replays one event or every event of a time range', async () => {
    const r = await startReceiver();
    receivers.push(r);
    const endpointId = (await endpointOf('enterprise', r.url)).endpoint.id;
    const seqs = [
      ...(await appendEvents(suite.t.runtime.sql, [event('alachua')])),
      ...(await appendEvents(suite.t.runtime.sql, [event('broward')])),
    ];
    await until(() => r.received.length === 2, 'two first deliveries');
    await until(async () => (await deliveredCount(endpointId)) === 2, 'both delivered');
    expect((await cli('webhooks', 'deliveries', endpointId, '--status', 'delivered', '--json')).json().total).toBe(2);

    const listed = (await cli('webhooks', 'deliveries', endpointId, '--json')).json();
    expect(listed.deliveries.map((d: { event_id: string }) => d.event_id)).toEqual([publicEventId(seqs[1]!), publicEventId(seqs[0]!)]);
    expect(listed.deliveries[0]).toMatchObject({
      id: expect.stringMatching(/^whd_\d+$/),
      status: 'delivered',
      attempts: 1,
      attempt_log: [
        {
          attempt: 1,
          replay: 0,
          http_status: 200,
          error: null,
          response_body: 'ok',
          duration_ms: expect.any(Number),
          started_at: expect.any(String),
        },
      ],
    });
    const text = await cli('webhooks', 'deliveries', endpointId, '--event', publicEventId(seqs[0]!));
    expect(text.stdout).toMatch(
      new RegExp(
        `^1 delivery\\nwhd_\\d+ {2}${publicEventId(seqs[0]!)} {2}certificate\\.redeemed {2}delivered {2}1 attempt\\(s\\)\\n {4}#1 \\S+ \\d+ms 200\\n$`,
      ),
    );

    const one = await cli('webhooks', 'replay', endpointId, '--event', publicEventId(seqs[0]!), '--json');
    expect(one.json()).toEqual({ endpoint_id: endpointId, queued: 1 });
    await until(() => r.received.length === 3, 'the replayed event');
    expect(r.ids()[2]).toBe(publicEventId(seqs[0]!));

    const range = await cli('webhooks', 'replay', endpointId, '--from', new Date(Date.now() - 3600_000).toISOString(), '--json');
    expect(range.json()).toEqual({ endpoint_id: endpointId, queued: 2 });
    await until(() => r.received.length === 5, 'the replayed range');
    expect(r.ids().slice(3).sort()).toEqual(seqs.map(publicEventId).sort());
    await until(async () => (await deliveredCount(endpointId)) === 2, 'replays settled');
    const replayed = (await cli('webhooks', 'deliveries', endpointId, '--event', publicEventId(seqs[0]!), '--json')).json().deliveries[0];
    expect(replayed.attempt_log.map((a: { replay: number }) => a.replay)).toEqual([0, 1, 2]);
  });

  it('refuses what it cannot replay, each with its own code', async () => {
    const endpointId = (await endpointOf('growth', 'https://example.com/x', ['duval'])).endpoint.id;
    const [seq] = await appendEvents(suite.t.runtime.sql, [event('alachua')]);
    const cases: [string[], number, string | RegExp][] = [
      [[], 2, /^give either --event evt_<id> or --from <time>/],
      [['--event', 'evt_1', '--from', '2026-01-01'], 2, /^give either/],
      [['--event', '42'], 2, /^--event must be an event id such as evt_123/],
      [['--from', 'yesterday'], 2, /^--from must be an ISO-8601 time/],
      [['--from', '2030-01-02', '--to', '2030-01-01'], 2, /^--from must be before --to$/],
      [['--event', 'evt_999999999'], 1, /^no event evt_999999999 \(unknown, or pruned/],
      [
        ['--event', publicEventId(seq!)],
        1,
        new RegExp(`^endpoint ${endpointId} does not subscribe to ${publicEventId(seq!)} \\(certificate\\.redeemed, alachua\\)$`),
      ],
    ];
    for (const [extra, exit, message] of cases) {
      const r = await cli('webhooks', 'replay', endpointId, ...extra, '--json');
      expect(r.code, extra.join(' ')).toBe(exit);
      expect(r.json().error.message, extra.join(' ')).toMatch(message);
    }
    await setEndpointStatus(suite.t.runtime.sql, endpointId, { status: 'disabled', reason: 'operator' });
    const disabled = await cli('webhooks', 'replay', endpointId, '--from', '2026-01-01', '--json');
    expect(disabled.json().error).toEqual({
      code: 'endpoint_disabled',
      message: `endpoint ${endpointId} is disabled (operator); enable it before replaying`,
    });
  });

  it("refuses a replay past the client's replays a minute, saying when the next is possible", async () => {
    const { endpoint } = await endpointOf('growth', 'https://example.com/y');
    const endpointId = endpoint.id;
    const [seq] = await appendEvents(suite.t.runtime.sql, [event('alachua')]);
    // The client's whole budget, spent as the account page would spend it, stamped ten minutes
    // ahead so the bucket cannot refill while the CLI starts, however slow the machine is.
    const perMinute = suite.t.config.WEBHOOK_REPLAYS_PER_MINUTE;
    const ahead = new Date(Date.now() + 600_000);
    for (let i = 0; i < perMinute; i++) await replay(suite.t.runtime.sql, endpoint, { eventId: seq! }, { perMinute, now: ahead });
    const refused = await cli('webhooks', 'replay', endpointId, '--event', publicEventId(seq!), '--json');
    expect(refused.code).toBe(1);
    expect(refused.json().error).toEqual({
      code: 'replay_limit',
      message: expect.stringMatching(
        new RegExp(`^the client's at most ${perMinute} replays a minute; the next one is possible in \\d+ s$`),
      ),
    });
  });
});
