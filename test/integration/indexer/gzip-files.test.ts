import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCertificates } from '../../../indexer/certificates/bookkeeping.ts';
import { enqueueFiles } from '../../../services/process/ingest-runner.ts';
import { getRun } from '../../../services/control/ingest/ingest-runs.ts';
import { openTestRuntime, type TestRuntime } from '../../helpers/runtime.ts';

const fixture = (path: string) => fileURLToPath(new URL(`../../../fixtures/${path}`, import.meta.url));

/**
 * The demo set is committed gzipped to keep the clone small
 * (fixtures/demo/<county>/<year>.<ext>.gz) and the worker reads a .gz file as its text; a damaged
 * one is a typed rejection in one attempt.
 */
describe('ingest of gzipped files through the queue and worker', () => {
  let t: TestRuntime;
  let dir: string;
  const ingest = async (file: string, vendor: string, county: string, taxYear: number) => {
    const [outcome] = await enqueueFiles(t.runtime, [{ dataset: 'certificates', file, vendor, county, taxYear }], { wait: true });
    return { outcome: outcome!, run: (await getRun(t.runtime.sql, outcome!.jobId))! };
  };

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'gzip-files-'));
  });
  afterAll(async () => {
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads a gzipped file exactly as its text: every row of the good CSV, gzipped', async () => {
    const path = join(dir, 'good.csv.gz');
    writeFileSync(path, gzipSync(readFileSync(fixture('files/lienport-csv/good.csv'))));
    const { outcome, run } = await ingest(path, 'lienport', 'miami-dade', 2024);
    expect(outcome.status, outcome.error).toBe('succeeded');
    expect(outcome.result).toMatchObject({ rowsRead: 5, indexed: 5, quarantined: 0 });
    expect(run.attempts).toBe(1);
    expect(await countCertificates(t.runtime.opensearch, t.config.INDEX_PREFIX, 'miami-dade')).toBe(5);
  });

  it('loads a shipped demo file with the row count its manifest gives', async () => {
    const manifest = JSON.parse(readFileSync(fixture('demo/manifest.json'), 'utf8')) as {
      files: { path: string; vendor: string; county: string; tax_year: number; rows: number }[];
    };
    const entry = manifest.files.find((f) => f.county === 'franklin' && f.tax_year === 2024)!;
    expect(entry.path.endsWith('.gz')).toBe(true);
    const { outcome } = await ingest(fixture(`demo/${entry.path}`), entry.vendor, entry.county, entry.tax_year);
    expect(outcome.status, outcome.error).toBe('succeeded');
    expect(outcome.result).toMatchObject({ rowsRead: entry.rows, indexed: entry.rows, quarantined: 0 });
  });

  it('rejects a truncated gzip as unreadable_file in one attempt, nothing indexed', async () => {
    const whole = gzipSync(readFileSync(fixture('files/lienport-csv/good.csv')));
    const path = join(dir, 'truncated.csv.gz');
    writeFileSync(path, whole.subarray(0, Math.floor(whole.length / 2)));
    const { outcome, run } = await ingest(path, 'lienport', 'broward', 2024);
    expect(outcome.status).toBe('failed');
    expect(run).toMatchObject({ status: 'failed', errorCode: 'unreadable_file', attempts: 1 });
    expect(await countCertificates(t.runtime.opensearch, t.config.INDEX_PREFIX, 'broward')).toBe(0);
  });
});
