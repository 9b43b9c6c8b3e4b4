// @module-tag postgres
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngestQueue, redisConnection } from '../../../../indexer/queue.ts';
import { countQuarantine } from '../../../../services/control/ingest/quarantine.ts';
import { getSource } from '../../../../services/control/ingest/sources.ts';
import { openCliSuite, runCli } from '../../../helpers/cli.ts';
import type { TestRuntime } from '../../../helpers/runtime.ts';

// A file whose every row is refused is a failure, not a success:
// `ingest --tax-year 2099 good.csv --wait` once exited 0 with "indexed 0, quarantined 5" and left
// a permanent source row for 2099 with lastSuccessAt set.

const HEADER =
  '"Cert #","Tax Year","County","Parcel Number","Status","Face Amount","Delinquent Tax","Bid Rate %","Sale Date","Certificate Holder","Struck To County","Redeemed","Redemption Date","Redemption Amount","Tax Deed App Date","Owner Name","Situs Address","Legal Description","Batch #"';
const ROWS = [
  '2023-000001,2023,Miami-Dade,01-3125-041-0001,SOLD,$1260.00,$1200.00,5,05/28/2024,Gulf Coast Lien Fund LLC,N,N,,,,"SMITH, JOHN","1 NW 5TH ST, MIAMI, FL 33128",,B-1',
  '2023-000002,2023,Miami-Dade,01-3125-041-0002,SOLD,$525.00,$500.00,7,05/28/2024,Gulf Coast Lien Fund LLC,N,N,,,,"DOE, JANE","2 NW 5TH ST, MIAMI, FL 33128",,B-1',
];

describe('a file with no valid row', () => {
  let t: TestRuntime;
  let env: NodeJS.ProcessEnv;
  let dir: string;

  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, env, dir, close } = await openCliSuite(import.meta.url, 'taxcert-no-valid-rows-'));
  });
  afterAll(() => close());

  it('fails with a clear reason, keeps its quarantined rows and registers no source', async () => {
    const file = join(dir, 'miami-2023.csv');
    writeFileSync(file, `${[HEADER, ...ROWS].join('\n')}\n`);
    // Every row names tax year 2023; the job is for 2022.
    const r = await runCli(
      ['--json', 'ingest', '--vendor', 'lienport', '--county', 'miami-dade', '--tax-year', '2022', file, '--wait'],
      env,
    );
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { failed: number; jobs: { jobId: string; status: string; error?: string }[] };
    expect(doc.failed).toBe(1);
    expect(doc.jobs[0]?.status).toBe('failed');
    expect(doc.jobs[0]?.error).toMatch(/^no_valid_rows: none of the 2 certificates rows of .* is valid: all were quarantined/);
    expect(await getSource(t.runtime.sql, 'miami-dade', 2022)).toBeNull();
    expect(await countQuarantine(t.runtime.sql, { runId: doc.jobs[0]?.jobId })).toBe(2);
  });

  it('a tax year later than this year is refused before anything is queued', async () => {
    const file = join(dir, 'any.csv');
    writeFileSync(file, `${[HEADER, ...ROWS].join('\n')}\n`);
    const next = new Date().getUTCFullYear() + 1;
    const r = await runCli(['ingest', '--vendor', 'lienport', '--county', 'miami-dade', '--tax-year', String(next), file, '--wait'], env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(
      new RegExp(`^taxcert: --tax-year: ${next} is later than the current year \\d{4}; its certificates cannot have been sold yet$`),
    );
    const connection = redisConnection(t.config);
    const queue = createIngestQueue(t.config, connection);
    try {
      expect(await queue.getJobCountByTypes('wait', 'active', 'completed', 'failed')).toBe(1); // only the first test's job
    } finally {
      await queue.close();
      connection.disconnect();
    }
    expect(await getSource(t.runtime.sql, 'miami-dade', next)).toBeNull();
  });
});
