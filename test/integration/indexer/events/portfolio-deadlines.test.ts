// @module-tag postgres
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueEvents } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPortfolioDeadlines } from '../../../../indexer/events/portfolio-deadlines.ts';
import { startWebhookWorker, type WebhookWorkerHandle } from '../../../../indexer/webhooks/worker.ts';
import type { Config } from '../../../../services/config.ts';
import { FEED_JOBS, startFeedSchedule } from '../../../../indexer/events/schedule.ts';
import { enqueueFiles } from '../../../../services/process/ingest-runner.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../helpers/access.ts';
import { connectMcp } from '../../../helpers/mcp.ts';
import { alachuaCertificates, alachuaJob, writeAlachuaFile } from '../../../helpers/event-files.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';
import { until } from '../../../helpers/until.ts';
import { type Receiver, startReceiver } from '../../../helpers/webhook-receiver.ts';

const FAST: Partial<Config> = { WEBHOOK_RETRY_SCHEDULE: [150, 300, 450], WEBHOOK_TIMEOUT_MS: 2000, WEBHOOK_POLL_MS: 25 };

/**
 * Portfolio deadline alerts with a moved clock: Alachua 2023 certificates (sold 2024-06-01: a deed
 * application from 2026-04-01, expiry 2031-06-01) held by two clients' portfolios, the daily job
 * run on chosen Florida days, twice and by two workers at once, records each alert once, for the
 * outstanding certificates only, in its owner's feed only.
 */

interface DeadlineRow {
  id: string;
  type: string;
  data: {
    portfolio: { id: string; name: string };
    position: { id: string };
    certificate: { id: string; status: string };
    kind: string;
    date: string;
    days_left: number;
  };
}

const noonInFlorida = (day: string) => () => new Date(`${day}T16:00:00.000Z`);

describe('portfolio deadline alerts', () => {
  let t: AccessTestApp;
  let dir: string;
  let a: string;
  let b: string;
  const positions: Record<string, string> = {};
  let mine = '';
  let theirs = '';
  let worker: WebhookWorkerHandle;
  const receivers: { a?: Receiver; b?: Receiver } = {};
  const secrets = { a: '', b: '' };

  type Method = 'GET' | 'POST' | 'DELETE';
  const call = (key: string, method: Method, url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload === undefined ? {} : { payload: payload as object }) });
  const deadlines = async (key: string): Promise<DeadlineRow[]> => {
    const res = await call(key, 'GET', '/api/v1/events?limit=500&type=portfolio.deadline_approaching');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  /** Rows sorted: one run records a page's alerts in the order of the positions' random ids. */
  const sorted = (rows: (string | number)[][]) => rows.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  /** [portfolio, certificate, kind, date, days_left] of each alert, sorted. */
  const summary = (rows: DeadlineRow[]) =>
    sorted(rows.map((e) => [e.data.portfolio.id, e.data.certificate.id, e.data.kind, e.data.date, e.data.days_left]));
  const run = (day: string) =>
    recordPortfolioDeadlines(
      { opensearch: t.runtime.opensearch, sql: t.runtime.sql, prefix: t.config.INDEX_PREFIX, parcelBaseUrl: t.config.PARCEL_BASE_URL },
      noonInFlorida(day),
    );
  const id = (n: number) => sampleCertificate({}, n).id;

  beforeAll(async () => {
    t = await openAccessTestApp(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'taxcert-portfolio-deadlines-'));
    a = (await t.client('growth')).key;
    b = (await t.client('growth')).key;
    // n 0 and 1 redeemed, the rest sold.
    const [outcome] = await enqueueFiles(t.runtime, [alachuaJob(await writeAlachuaFile(dir, 'first.csv', alachuaCertificates(6, 2)))], {
      wait: true,
    });
    expect(outcome?.status, outcome?.error).toBe('succeeded');
    const portfolio = async (key: string, name: string, lines: object[]) => {
      const made = await call(key, 'POST', '/api/v1/portfolios', { name });
      expect(made.statusCode, made.body).toBe(201);
      const pf = made.json().data.id as string;
      const added = await call(key, 'POST', `/api/v1/portfolios/${pf}/positions`, { positions: lines });
      expect(added.statusCode, added.body).toBe(200);
      for (const l of added.json().data.lines as { position: { id: string; certificate_id: string } }[])
        positions[`${pf}|${l.position.certificate_id}`] = l.position.id;
      return pf;
    };
    // A holds a redeemed certificate (0), two sold ones (2, 3) and one never loaded; B holds 3 too.
    mine = await portfolio(a, 'Book A', [
      { certificate_id: id(0) },
      { certificate_id: id(2) },
      { certificate_id: id(3) },
      { county: 'alachua', certificate_number: '2023-999999', tax_year: 2023 },
    ]);
    theirs = await portfolio(b, 'Book B', [{ certificate_id: id(3) }]);
    // A's endpoint takes only the deadline alerts; B's takes everything its client may see.
    worker = startWebhookWorker({ ...t.runtime, config: { ...t.runtime.config, ...FAST } }, { concurrency: 4 });
    receivers.a = await startReceiver();
    receivers.b = await startReceiver();
    const endpoint = async (key: string, body: object) => {
      const res = await call(key, 'POST', '/api/v1/webhook-endpoints', body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.secret as string;
    };
    secrets.a = await endpoint(a, { url: receivers.a.url, types: ['portfolio.deadline_approaching'] });
    secrets.b = await endpoint(b, { url: receivers.b.url });
  });
  afterAll(async () => {
    await worker?.close();
    await receivers.a?.close();
    await receivers.b?.close();
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('the deed application opens: one alert per outstanding position on its day, however many runs or workers see it', async () => {
    expect(await run('2026-03-31')).toBe(0);
    const counts = await Promise.all([run('2026-04-01'), run('2026-04-01')]);
    expect(counts.sort()).toEqual([0, 3]);
    expect(await run('2026-04-01')).toBe(0);
    // The next day sees nothing new: the opening was told.
    expect(await run('2026-04-02')).toBe(0);
    expect(summary(await deadlines(a))).toEqual(
      sorted([
        [mine, id(2), 'deed_application_opens', '2026-04-01', 0],
        [mine, id(3), 'deed_application_opens', '2026-04-01', 0],
      ]),
    );
    expect(summary(await deadlines(b))).toEqual([[theirs, id(3), 'deed_application_opens', '2026-04-01', 0]]);
    // Each names its portfolio and position and carries the certificate as GET /certificates/{id} renders it.
    const first = (await deadlines(a)).find((e) => e.data.certificate.id === id(2));
    expect(first!.data.portfolio).toEqual({ id: mine, name: 'Book A' });
    expect(first!.data.position).toEqual({ id: positions[`${mine}|${id(2)}`] });
    expect(first!.data.certificate).toEqual((await call(a, 'GET', `/api/v1/certificates/${id(2)}`)).json().data);
    expect(JSON.stringify(await call(b, 'GET', '/api/v1/events?limit=500').then((r) => r.json()))).not.toContain(mine);
  });

  it("delivers each alert to its owner's endpoint once, signed, and none to the other client", async () => {
    const verified = (secret: string, receiver: Receiver) =>
      receiver.received.map(
        (r) =>
          new Webhook(secret).verify(r.body, {
            'webhook-id': String(r.headers['webhook-id']),
            'webhook-timestamp': String(r.headers['webhook-timestamp']),
            'webhook-signature': String(r.headers['webhook-signature']),
          }) as DeadlineRow,
      );
    const mineExpected = await deadlines(a);
    await until(() => receivers.a!.received.length >= mineExpected.length, `${mineExpected.length} deliveries to A`);
    expect(summary(verified(secrets.a, receivers.a!))).toEqual(summary(mineExpected));
    const theirsExpected = await deadlines(b);
    await until(
      () => verified(secrets.b, receivers.b!).filter((e) => e.type === 'portfolio.deadline_approaching').length >= theirsExpected.length,
      'the alert to B',
    );
    const got = verified(secrets.b, receivers.b!).filter((e) => e.type.startsWith('portfolio.'));
    expect(summary(got)).toEqual(summary(theirsExpected));
    for (const r of receivers.b!.received) expect(r.body).not.toContain(mine);
  });

  it('expiry: 90, 30 and 7 days before, each once; a missed horizon day sends the nearest one reached; none once expired', async () => {
    const seen = (await deadlines(a)).length;
    expect(await run('2031-03-03')).toBe(3);
    expect(await run('2031-03-04')).toBe(0);
    // The worker was down on May 2 (30 days left): May 12 tells the 30-day alert, 20 days left.
    expect(await Promise.all([run('2031-05-12'), run('2031-05-12')]).then((c) => c.sort())).toEqual([0, 3]);
    expect(await run('2031-05-25')).toBe(3);
    expect(await run('2031-05-31')).toBe(0);
    expect(await run('2031-06-01')).toBe(0);
    expect(summary((await deadlines(a)).slice(seen))).toEqual(
      sorted([
        [mine, id(2), 'expires', '2031-06-01', 90],
        [mine, id(3), 'expires', '2031-06-01', 90],
        [mine, id(2), 'expires', '2031-06-01', 20],
        [mine, id(3), 'expires', '2031-06-01', 20],
        [mine, id(2), 'expires', '2031-06-01', 7],
        [mine, id(3), 'expires', '2031-06-01', 7],
      ]),
    );
    // B's alerts in feed order: one position, one alert a run.
    expect((await deadlines(b)).map((e) => e.data.days_left)).toEqual([0, 90, 20, 7]);
    // Nothing ever for the redeemed certificate or the position never loaded.
    for (const e of await deadlines(a)) expect(e.data.certificate.id).not.toBe(id(0));
  });

  it("answers the list_events tool each client's own alerts only, as the feed does", async () => {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    for (const key of [a, b]) {
      const client = await connectMcp(base, bearer(key));
      try {
        const result = await client.callTool({ name: 'list_events', arguments: { type: ['portfolio.deadline_approaching'], limit: 500 } });
        expect(result.isError).toBeFalsy();
        const rows = (result.structuredContent as { data: DeadlineRow[] }).data;
        expect(rows).toEqual(await deadlines(key));
        expect(rows.length).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
    }
  });

  it("is scheduled once a day just after midnight in Florida, and the worker's job runs it", async () => {
    const schedule = await startFeedSchedule(t.runtime);
    try {
      const scheduler = await schedule.queue.getJobScheduler(FEED_JOBS.portfolioDeadlines);
      expect(scheduler).toMatchObject({ pattern: '5 0 * * *', tz: 'America/New_York' });
      const next = new Date(scheduler!.next!);
      expect(next.toLocaleTimeString('en-GB', { timeZone: 'America/New_York', hourCycle: 'h23' })).toBe('00:05:00');
      // Today (long after these deadlines' horizons, before 2031's) is due nothing more: the job records none.
      const job = await schedule.queue.add(FEED_JOBS.portfolioDeadlines, {});
      const events = new QueueEvents(schedule.queue.name, {
        connection: schedule.queue.opts.connection,
        prefix: schedule.queue.opts.prefix,
      });
      try {
        expect(await job.waitUntilFinished(events, 30_000)).toEqual({ recorded: 0 });
      } finally {
        await events.close();
      }
    } finally {
      await schedule.close();
    }
  }, 60_000);
});
