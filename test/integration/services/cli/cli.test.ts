// @module-tag postgres
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations } from '../../../../services/control/db/migrate.ts';
import { openCliSuite, runCli } from '../../../helpers/cli.ts';

const fixture = (path: string) => fileURLToPath(new URL(`../../../../fixtures/files/${path}`, import.meta.url));

describe('taxcert CLI', () => {
  let env: NodeJS.ProcessEnv;
  let dir: string;

  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ env, dir, close } = await openCliSuite(import.meta.url, 'taxcert-cli-'));
  });
  afterAll(() => close());

  // Each spawn pays tsx's start-up (about a second); these are independent, so they run side by side.
  it.concurrent.each([
    ['start'],
    ['serve'],
    ['worker'],
    ['migrate'],
    ['ingest'],
    ['fixtures', 'generate'],
    ['quarantine', 'list'],
    ['reindex'],
    ['status'],
    ['holders', 'derive'],
  ])('%s --help exits 0 and describes its options', async (...command) => {
    const r = await runCli([...command, '--help'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: taxcert ${command.join(' ')}`);
  });

  it.concurrent.each([
    [['ingest'], /^taxcert: give one or more FILEs, or --manifest$/],
    [['ingest', fixture('lienport-csv/good.csv')], /^taxcert: --vendor, --county and --tax-year are required with FILEs$/],
    [
      ['ingest', '--vendor', 'lienport', '--county', 'atlantis', '--tax-year', '2024', fixture('lienport-csv/good.csv')],
      /^taxcert: --county: unknown county "atlantis" \(taxcert counties lists them\)$/,
    ],
    [
      ['ingest', '--vendor', 'nope', '--county', 'broward', '--tax-year', '2024', fixture('lienport-csv/good.csv')],
      /^taxcert: --vendor: unknown vendor "nope"; one of lienport, /,
    ],
    [
      ['ingest', '--vendor', 'lienport', '--county', 'broward', '--tax-year', '24', fixture('lienport-csv/good.csv')],
      /^taxcert: --tax-year: "24" is not a year/,
    ],
    [
      ['ingest', '--vendor', 'lienport', '--county', 'broward', '--tax-year', '2024', '/no/such/file.csv'],
      /^taxcert: \/no\/such\/file.csv: no such file$/,
    ],
    [
      ['ingest', '--dataset', 'plats', '--manifest', 'x.json'],
      /^taxcert: --dataset must be one of certificates, holders, lands-available, parcels; got "plats"$/,
    ],
    [['fixtures', 'generate', '--out', '/tmp/x', '--certificates', '-5'], /^taxcert: --certificates must be an integer/],
    [
      ['reindex', '--dataset', 'plats'],
      /^taxcert: --dataset must be one of certificates, sales, holders, lands-available, parcels, all; got "plats"$/,
    ],
    [['quarantine', 'list', '--limit', '0'], /^taxcert: --limit must be an integer 1-10000$/],
  ])('%j fails with exit 2 and one line naming the problem', async (args, message) => {
    const r = await runCli(args, env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

  it('a bad environment value stops the command with one line naming the variable', async () => {
    const r = await runCli(['status'], { ...env, INDEX_PREFIX: 'NOT OK' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(/^taxcert: INDEX_PREFIX: must be lowercase letters/);
  });

  it('a command that needs Redis says how to fix it when Redis does not answer', async () => {
    const r = await runCli(['status'], { ...env, REDIS_URL: 'redis://127.0.0.1:1' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(/^taxcert: Redis does not answer at redis:\/\/127\.0\.0\.1:1\. Start it /);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('migrate --json prints exactly one JSON document', async () => {
    const r = await runCli(['migrate', '--json'], env);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    // Every migration file of this build, in order (other issues add theirs: 006-009, 010-019).
    expect(doc.migrations.map((m: { version: number }) => m.version)).toEqual((await loadMigrations('sqlite')).map((m) => m.version));
  });

  it('fixtures generate, ingest --manifest --wait, status and quarantine list work together with --json', async () => {
    const out = join(dir, 'set');
    const gen = await runCli(['fixtures', 'generate', '--out', out, '--certificates', '400', '--seed', '3', '--json'], env);
    expect(gen.code).toBe(0);
    const generated = JSON.parse(gen.stdout) as { files: number };
    // 400 certificates over 8 counties x 11 tax years: a small county may have a year with no row.
    expect(generated).toMatchObject({ certificates: 400, counties: 8 });
    expect(generated.files).toBeGreaterThan(80);
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);

    const ingest = await runCli(['ingest', '--manifest', join(out, 'manifest.json'), '--wait', '--json'], env);
    expect(ingest.code).toBe(0);
    const summary = JSON.parse(ingest.stdout);
    expect(summary).toMatchObject({
      files: generated.files,
      succeeded: generated.files,
      failed: 0,
      rowsRead: 400,
      indexed: 400,
      quarantined: 0,
    });

    const status = await runCli(['status', '--json'], env);
    expect(status.code).toBe(0);
    const s = JSON.parse(status.stdout);
    expect(s.datasets.find((d: { dataset: string }) => d.dataset === 'certificates').documents).toBe(400);
    expect(s.queue).toMatchObject({ depth: 0, active: 0, failed: 0 });

    const bad = await runCli(
      [
        'ingest',
        '--vendor',
        'lienport',
        '--county',
        'miami-dade',
        '--tax-year',
        '2024',
        fixture('lienport-csv/bad-rows.csv'),
        '--wait',
        '--json',
      ],
      env,
    );
    expect(bad.code).toBe(0);
    const q = await runCli(['quarantine', 'list', '--json'], env);
    const list = JSON.parse(q.stdout);
    expect(list.total).toBe(5);
    expect(list.rows[0]).toMatchObject({ line: 2, reasons: ['face_amount: "$12,3x4" is not a dollar amount'] });
  });

  it('ingest --wait exits 1 when a file is rejected, and says why', async () => {
    const r = await runCli(
      ['ingest', '--vendor', 'lienport', '--county', 'miami-dade', '--tax-year', '2024', fixture('lienport-csv/truncated.csv'), '--wait'],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAILED {2}miami-dade 2024 .*truncated\.csv: truncated_file: /);
  });

  it('reindex moves the alias to a new index with the same documents', async () => {
    const before = JSON.parse((await runCli(['status', '--json'], env)).stdout);
    const r = await runCli(['reindex', '--dataset', 'certificates', '--json'], env);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout).reindexed[0];
    const after = JSON.parse((await runCli(['status', '--json'], env)).stdout);
    const cert = (s: { datasets: { dataset: string; index: string; documents: number }[] }) =>
      s.datasets.find((d) => d.dataset === 'certificates')!;
    expect(result.from).toBe(cert(before).index);
    expect(result.to).toBe(cert(after).index);
    expect(cert(after).documents).toBe(cert(before).documents);
    expect(after.queue.paused).toBe(false);
  });
});
