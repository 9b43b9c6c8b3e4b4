import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listQuarantine } from '../../../../services/control/ingest/quarantine.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { certificateId } from '../../../../services/domain/ids.ts';
import { openCliSuite, runCli } from '../../../helpers/cli.ts';
import type { TestRuntime } from '../../../helpers/runtime.ts';

// A row that would move an indexed certificate to another parcel is a conflict, not an update:
// loading a generated set over the demo set once replaced thousands of certificates whose county,
// tax year and number matched but whose parcel differed, and the sale summaries blended the two
// sets.

const HEADER =
  '"Cert #","Tax Year","County","Parcel Number","Status","Face Amount","Delinquent Tax","Bid Rate %","Sale Date","Certificate Holder","Struck To County","Redeemed","Redemption Date","Redemption Amount","Tax Deed App Date","Owner Name","Situs Address","Legal Description","Batch #"';
const row = (n: number, parcel: string, owner: string) =>
  `2023-00000${n},2023,Miami-Dade,${parcel},SOLD,$1260.00,$1200.00,5,05/28/2024,Gulf Coast Lien Fund LLC,N,N,,,,"${owner}","${n} NW 5TH ST, MIAMI, FL 33128",,B-1`;

describe('a re-ingest that would change a certificate parcel', () => {
  let t: TestRuntime;
  let env: NodeJS.ProcessEnv;
  let dir: string;

  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, env, dir, close } = await openCliSuite(import.meta.url, 'taxcert-parcel-conflict-'));
  });
  afterAll(() => close());

  async function ingest(name: string, rows: string[]) {
    const file = join(dir, name);
    writeFileSync(file, `${[HEADER, ...rows].join('\n')}\n`);
    const r = await runCli(
      ['--json', 'ingest', '--vendor', 'lienport', '--county', 'miami-dade', '--tax-year', '2023', file, '--wait'],
      env,
    );
    return JSON.parse(r.stdout) as {
      jobs: { jobId: string; status: string; error?: string; result?: { indexed: number; updated: number; quarantined: number } }[];
    };
  }

  async function parcelOf(n: number): Promise<string> {
    const res = await t.runtime.opensearch.get({
      index: aliasName(t.config.INDEX_PREFIX, 'certificates'),
      id: certificateId('miami-dade', 2023, `2023-00000${n}`),
    });
    return (res.body._source as { parcel_id: string }).parcel_id;
  }

  it('quarantines the row naming both parcels and keeps the indexed certificate', async () => {
    const first = await ingest('first.csv', [row(1, '01-3125-041-0001', 'SMITH, JOHN'), row(2, '01-3125-041-0002', 'DOE, JANE')]);
    expect(first.jobs[0]?.result).toMatchObject({ indexed: 2, quarantined: 0 });

    // Certificate 1 now names another parcel (another data set); certificate 2 is a plain update.
    const second = await ingest('second.csv', [row(1, '30-9999-999-9999', 'OTHER, OWNER'), row(2, '01-3125-041-0002', 'DOE, JANE A')]);
    expect(second.jobs[0]?.result).toMatchObject({ indexed: 0, updated: 1, quarantined: 1 });
    expect(await parcelOf(1)).toBe('01-3125-041-0001');

    const [refused] = await listQuarantine(t.runtime.sql, { runId: second.jobs[0]?.jobId });
    expect(refused?.line).toBe(2);
    expect(refused?.reasons).toEqual([
      'parcel_id: certificate 2023-000001 of tax year 2023 is indexed for parcel 01-3125-041-0001; this row names parcel 30-9999-999-9999. Not replaced: a certificate never changes parcel (another data set loaded over this one?)',
    ]);
  });

  it('a file whose every row conflicts fails and changes nothing', async () => {
    const third = await ingest('third.csv', [row(1, '30-9999-999-9999', 'OTHER, OWNER')]);
    expect(third.jobs[0]?.status).toBe('failed');
    expect(third.jobs[0]?.error).toMatch(/^no_valid_rows: none of the 1 certificates rows of .* can load/);
    expect(await parcelOf(1)).toBe('01-3125-041-0001');
  });
});
