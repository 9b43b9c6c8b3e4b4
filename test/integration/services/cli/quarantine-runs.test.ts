// @module-tag postgres
import { copyFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCliSuite, runCli } from '../../../helpers/cli.ts';

// Quarantined rows must not disappear: ingest_runs once showed 5 quarantined rows for a run while
// `quarantine list --run <that job>` showed none, and `--file` showed none after a later run of
// the same file: the table was unique on (file hash, line), so a later run took the rows over.

const HEADER =
  '"Cert #","Tax Year","County","Parcel Number","Status","Face Amount","Delinquent Tax","Bid Rate %","Sale Date","Certificate Holder","Struck To County","Redeemed","Redemption Date","Redemption Amount","Tax Deed App Date","Owner Name","Situs Address","Legal Description","Batch #"';
// Two plain sold certificates of tax year 2023 (sold in May 2024), and two rows no year accepts.
const rows = (year: number) => [
  `${year}-000001,${year},Miami-Dade,01-3125-041-0001,SOLD,$1260.00,$1200.00,5,05/28/${year + 1},Gulf Coast Lien Fund LLC,N,N,,,,"SMITH, JOHN","1 NW 5TH ST, MIAMI, FL 33128",,B-1`,
  `${year}-000002,${year},Miami-Dade,01-3125-041-0002,SOLD,$525.00,$500.00,7,05/28/${year + 1},Gulf Coast Lien Fund LLC,N,N,,,,"DOE, JANE","2 NW 5TH ST, MIAMI, FL 33128",,B-1`,
  `${year}-000003,${year},Miami-Dade,01-3125-041-0003,SOLD,"$12,3x4",$100.00,5,05/28/${year + 1},Gulf Coast Lien Fund LLC,N,N,,,,"ROE, RICHARD","3 NW 5TH ST, MIAMI, FL 33128",,B-1`,
  `${year}-000004,${year},Miami-Dade,01-3125-041-0004,SOLD,$100.00,$90.00,5,02/30/${year + 1},Gulf Coast Lien Fund LLC,N,N,,,,"POE, EDGAR","4 NW 5TH ST, MIAMI, FL 33128",,B-1`,
];

describe('quarantined rows stay with their run', () => {
  let env: NodeJS.ProcessEnv;
  let dir: string;

  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ env, dir, close } = await openCliSuite(import.meta.url, 'taxcert-quarantine-runs-'));
  });
  afterAll(() => close());

  async function ingest(file: string, year: number): Promise<{ jobId: string; quarantined: number }> {
    const r = await runCli(
      ['--json', 'ingest', '--vendor', 'lienport', '--county', 'miami-dade', '--tax-year', String(year), file, '--wait'],
      env,
    );
    const doc = JSON.parse(r.stdout) as { jobs: { jobId: string; result?: { quarantined: number } }[] };
    return { jobId: doc.jobs[0]?.jobId ?? '', quarantined: doc.jobs[0]?.result?.quarantined ?? -1 };
  }

  async function listed(args: string[]): Promise<{ total: number; runs: string[] }> {
    const r = await runCli(['--json', 'quarantine', 'list', ...args], env);
    const doc = JSON.parse(r.stdout) as { total: number; rows: { runId: string }[] };
    return { total: doc.total, runs: [...new Set(doc.rows.map((q) => q.runId))].sort() };
  }

  it('a later run of the same file keeps the earlier run rows, by run and by file, until cleared', async () => {
    const file = join(dir, 'miami-2023.csv');
    writeFileSync(file, `${[HEADER, ...rows(2023)].join('\n')}\n`);
    const first = await ingest(file, 2023);
    expect(first.quarantined).toBe(2);

    // The same bytes from another path, for another county-year job: a run of its own.
    const copy = join(dir, 'copy.csv');
    copyFileSync(file, copy);
    const second = await ingest(copy, 2022); // every row names 2023: all refused
    expect(second.jobId).not.toBe(first.jobId);

    expect(await listed(['--run', first.jobId])).toEqual({ total: 2, runs: [first.jobId] });
    expect((await listed(['--run', second.jobId])).total).toBe(4);
    // By file: a relative path finds it too, and so do rows of the same content loaded from elsewhere.
    const byFile = await listed(['--file', relative(process.cwd(), file)]);
    expect(byFile).toEqual({ total: 6, runs: [first.jobId, second.jobId].sort() });

    const cleared = await runCli(['--json', 'quarantine', 'clear', '--run', second.jobId], env);
    expect(JSON.parse(cleared.stdout)).toEqual({ removed: 4 });
    expect((await listed(['--file', file])).total).toBe(2);
    expect((await runCli(['quarantine', 'clear'], env)).code).toBe(2);
  });
});
