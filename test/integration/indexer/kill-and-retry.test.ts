import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCertificates } from '../../../indexer/certificates/bookkeeping.ts';
import { lienportCsvWriter } from '../../../services/generator/writers/lienport-csv.ts';
import { aliasName } from '../../../services/domain/datasets.ts';
import { createIngestQueue, createQueueEvents, ingestJobId, redisConnection } from '../../../indexer/queue.ts';
import { loadRegistry } from '../../../services/domain/registry.ts';
import { startIngestWorker } from '../../../indexer/worker.ts';
import { getRun } from '../../../services/control/ingest/ingest-runs.ts';
import { countQuarantine } from '../../../services/control/ingest/quarantine.ts';
import { openTestRuntime, type TestRuntime } from '../../helpers/runtime.ts';
import { sampleCertificate } from '../../helpers/sample-certificate.ts';

const ROWS = 30_000;
const bin = fileURLToPath(new URL('../../../bin/taxcert.js', import.meta.url));

/**
 * A worker killed with SIGKILL in the middle of a file: the queue hands the job
 * to another worker once the dead one's lock expires, and the index ends exactly
 * as one clean run would leave it.
 */
describe('a worker killed mid-file', () => {
  let t: TestRuntime;
  let dir: string;
  let file: string;
  let child: ChildProcess | undefined;
  let expectedFace = 0;

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'taxcert-kill-'));
    file = join(dir, 'alachua-2023.csv');
    const records = Array.from({ length: ROWS }, (_, n) => sampleCertificate({}, n));
    expectedFace = Math.round(records.reduce((s, r) => s + r.face_amount * 100, 0));
    const out = createWriteStream(file);
    await lienportCsvWriter.write(records, out, { county: loadRegistry().county('alachua')!, taxYear: 2023 });
    out.end();
    await finished(out);
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    await t.teardown();
  });

  it('is retried by the queue and the index ends as if the file ran once', async () => {
    const { config } = t;
    child = spawn(process.execPath, [bin, 'worker', '--lock-ms', '2000', '--concurrency', '1'], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        OPENSEARCH_URL: config.OPENSEARCH_URL,
        REDIS_URL: config.REDIS_URL,
        DATABASE_PATH: config.DATABASE_PATH,
        ...(config.DATABASE_URL ? { DATABASE_URL: config.DATABASE_URL } : {}),
        INDEX_PREFIX: config.INDEX_PREFIX,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const connection = redisConnection(config);
    const queue = createIngestQueue(config, connection);
    const eventsConnection = redisConnection(config);
    const events = createQueueEvents(config, eventsConnection);
    await events.waitUntilReady();

    const data = { dataset: 'certificates' as const, file, vendor: 'lienport', county: 'alachua', taxYear: 2023 };
    const jobId = ingestJobId(data, 'kill-test-0000000000');
    const indexing = new Promise<void>((resolve) =>
      events.on('progress', ({ jobId: id, data: p }) => {
        const progress = p as { phase?: string; rows?: number };
        if (id === jobId && progress.phase === 'indexing' && (progress.rows ?? 0) >= 5_000) resolve();
      }),
    );
    const job = await queue.add('ingest', data, { jobId });
    await indexing;
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    // Part of the file is in the index now; the job is still marked active under a lock nobody renews.
    await t.runtime.opensearch.indices.refresh({ index: aliasName(config.INDEX_PREFIX, 'certificates') });
    const partial = await countCertificates(t.runtime.opensearch, config.INDEX_PREFIX);
    expect(partial).toBeLessThan(ROWS);

    const killedAt = Date.now();
    const rescuer = startIngestWorker(t.runtime, { concurrency: 1, lockDuration: 2000, stalledInterval: 1000 });
    try {
      const result = await job.waitUntilFinished(events, 360_000);
      process.stderr.write(`kill-and-retry: rescued and finished ${Date.now() - killedAt} ms after the kill\n`);
      expect(result.rowsRead).toBe(ROWS);
      expect(result.indexed + result.updated).toBe(ROWS);
      expect(result.quarantined).toBe(0);
    } finally {
      await rescuer.close();
      await events.close();
      await queue.close();
      connection.disconnect();
      eventsConnection.disconnect();
    }

    expect(await countCertificates(t.runtime.opensearch, config.INDEX_PREFIX)).toBe(ROWS);
    const sums = await t.runtime.opensearch.search({
      index: aliasName(config.INDEX_PREFIX, 'certificates'),
      body: { size: 0, aggs: { face: { sum: { field: 'face_amount' } } } },
    });
    const aggs = sums.body.aggregations as { face: { value: number } };
    expect(Math.round(aggs.face.value * 100)).toBe(expectedFace);
    expect(await getRun(t.runtime.sql, jobId)).toMatchObject({ status: 'succeeded', rowsRead: ROWS });
    expect(await countQuarantine(t.runtime.sql)).toBe(0);
  }, 400_000);
});
