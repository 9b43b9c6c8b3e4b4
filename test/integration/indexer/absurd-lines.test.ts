import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RECORD_CHARS } from '../../../indexer/adapters/record-limit.ts';
import { countCertificates } from '../../../indexer/certificates/bookkeeping.ts';
import { enqueueFiles } from '../../../services/process/ingest-runner.ts';
import { getRun } from '../../../services/control/ingest/ingest-runs.ts';
import { listQuarantine } from '../../../services/control/ingest/quarantine.ts';
import { getSource } from '../../../services/control/ingest/sources.ts';
import { openTestRuntime, type TestRuntime } from '../../helpers/runtime.ts';

const fixture = (format: string, name: string) =>
  readFileSync(fileURLToPath(new URL(`../../../fixtures/files/${format}/${name}`, import.meta.url)), 'utf8');

/**
 * A county file with absurd lines must not stall or crash the worker (one huge line once took
 * seconds to read, or killed the worker out of memory and took every job in flight with it).
 * Through the queue and the worker as production runs them: a line past the cap is a typed
 * rejection (line_too_long) in one attempt, a row nested 20,000 deep is one quarantined row of a
 * file that loads, and a file whose lines end in lone CRs loads like its LF twin.
 */
describe('ingest of absurd lines through the queue and worker', () => {
  let t: TestRuntime;
  let dir: string;
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const ingest = async (file: string, vendor: string) => {
    const [outcome] = await enqueueFiles(t.runtime, [{ dataset: 'certificates', file, vendor, county: 'miami-dade', taxYear: 2024 }], {
      wait: true,
    });
    return { outcome: outcome!, run: (await getRun(t.runtime.sql, outcome!.jobId))! };
  };
  const total = () => countCertificates(t.runtime.opensearch, t.config.INDEX_PREFIX, 'miami-dade');

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'absurd-lines-'));
  });
  afterAll(async () => {
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a CSV whose lines end in lone CRs (old exports) loads every row, as its LF twin does', async () => {
    const good = fixture('lienport-csv', 'good.csv');
    // Only the line ends outside quotes change: the quoted legal description keeps its own break.
    const crOnly = good.replace(/\n(?=\d{4}-|$)/g, '\r');
    expect(crOnly).not.toBe(good);
    const { outcome, run } = await ingest(write('cr-only.csv', crOnly), 'lienport');
    expect(outcome.status, outcome.error).toBe('succeeded');
    expect(outcome.result).toMatchObject({ rowsRead: 5, indexed: 5, quarantined: 0 });
    expect(run.attempts).toBe(1);
    expect(await total()).toBe(5);
  });

  it.each([
    [
      'lienport-csv',
      'lienport',
      'good.csv',
      (line: string) => `${line.split('\n')[0]}\n2024-000999,2024,Miami-Dade,"${'x'.repeat(2 * MAX_RECORD_CHARS)}"\n`,
    ],
    ['county-pipe', 'lienexchange', 'good.pipe', (line: string) => `${line.split('\n')[0]}\n${'y'.repeat(2 * MAX_RECORD_CHARS)}\n`],
    [
      'certbid-jsonl',
      'certbid',
      'good.jsonl',
      (line: string) => `${line.split('\n')[0]}\n{"holderName":"${'z'.repeat(2 * MAX_RECORD_CHARS)}"}\n`,
    ],
  ])('a %s file with a 2 MiB line is rejected as line_too_long in one attempt, nothing indexed', async (format, vendor, good, make) => {
    const before = await total();
    const { outcome, run } = await ingest(write(`long-line-${format}`, make(fixture(format, good))), vendor);
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/line starting at line 2 is longer than 1048576 characters|record starting at line 2 is longer than/);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'line_too_long', attempts: 1 });
    expect((await getSource(t.runtime.sql, 'miami-dade', 2024))!.lastError).toBe('line_too_long: a line of the county file exceeds 1 MiB');
    expect(await total()).toBe(before);
  });

  it('a JSONL row nested 20,000 deep is one quarantined row; the rest of the file loads in one attempt', async () => {
    const lines = fixture('certbid-jsonl', 'good.jsonl').trimEnd().split('\n');
    const deep = `{"certificateNumber":"2024-000999","holderName":${'['.repeat(20000)}${']'.repeat(20000)}}`;
    const trailer = JSON.parse(lines.at(-1)!) as { count: number };
    const text = [...lines.slice(0, -1), deep, JSON.stringify({ trailer: true, count: trailer.count + 1 }), ''].join('\n');
    const { outcome, run } = await ingest(write('deep.jsonl', text), 'certbid');
    expect(outcome.status, outcome.error).toBe('succeeded');
    expect(outcome.result).toMatchObject({ rowsRead: trailer.count + 1, quarantined: 1 });
    expect(run).toMatchObject({ status: 'succeeded', attempts: 1 });
    const [refused] = await listQuarantine(t.runtime.sql, { runId: outcome.jobId });
    expect(refused!.line).toBe(lines.length);
    // The row's own problem first; the builder then lists the fields it could not read, as for any unreadable row.
    expect(refused!.reasons[0]).toBe('row: nests deeper than 8 levels');
  });
});
