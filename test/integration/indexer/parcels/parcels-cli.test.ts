import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARCELS_HEADER } from '../../../../services/formats/parcels-csv.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { openCliSuite, runCli } from '../../../helpers/cli.ts';
import type { TestRuntime } from '../../../helpers/runtime.ts';

// `taxcert ingest --dataset parcels --county <slug> <file>`: a parcel file needs no vendor or tax
// year (the roll is the state's and names its own year), and loads through the worker's queue.
describe('taxcert ingest --dataset parcels', () => {
  let t: TestRuntime;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, env, dir, close } = await openCliSuite(import.meta.url, 'taxcert-parcels-cli-'));
  });
  afterAll(() => close());

  it('loads a county parcel file and quarantines the row outside its county', async () => {
    const file = join(dir, 'lee-parcels.csv');
    writeFileSync(
      file,
      `${[
        PARCELS_HEADER.join(','),
        '46,10-44-24-C4-00001.0010,2025,180000,10000,001,N,"1 PALM ST",FORT MYERS,33901,26.6406,-81.8723',
        '46,10-44-24-C4-00001.0020,2025,90000,8000,000,Y,2 PALM ST,CAPE CORAL,33904,30.4213,-87.2169',
      ].join('\n')}\n`,
    );
    const r = await runCli(['--json', 'ingest', '--dataset', 'parcels', '--county', 'lee', file, '--wait'], env);
    const out = JSON.parse(r.stdout) as { jobs: { status: string; result?: { indexed: number; quarantined: number } }[] };
    expect(out.jobs[0]).toMatchObject({ status: 'succeeded', result: { indexed: 1, quarantined: 1 } });
    const doc = await t.runtime.opensearch.get({ index: aliasName(t.config.INDEX_PREFIX, 'parcels'), id: 'lee:104424C4000010010' });
    expect(doc.body._source).toMatchObject({ situs_city: 'FORT MYERS', location: { lat: 26.6406, lon: -81.8723 }, homestead: false });
  });
});
