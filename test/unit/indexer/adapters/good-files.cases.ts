import { bidvaultTsv } from '../../../../indexer/adapters/bidvault-tsv.ts';
import { certbidJsonl } from '../../../../indexer/adapters/certbid-jsonl.ts';
import { countyPipe } from '../../../../indexer/adapters/county-pipe.ts';
import { lienportCsv } from '../../../../indexer/adapters/lienport-csv.ts';
import { parcelmartCsv } from '../../../../indexer/adapters/parcelmart-csv.ts';
import { taxgavelFixed } from '../../../../indexer/adapters/taxgavel-fixed.ts';
import type { FormatAdapter } from '../../../../indexer/adapters/types.ts';

/**
 * Each platform format's good file and the vendor its records carry. Its expected
 * adapter inputs and canonical records are fixtures/records/<format>/good.json.
 */
export const GOOD_FILES: ReadonlyArray<{ adapter: FormatAdapter; file: string; vendor: string }> = [
  { adapter: lienportCsv, file: 'good.csv', vendor: 'lienport' },
  { adapter: certbidJsonl, file: 'good.jsonl', vendor: 'certbid' },
  { adapter: taxgavelFixed, file: 'good.dat', vendor: 'taxgavel' },
  { adapter: parcelmartCsv, file: 'good.csv', vendor: 'parcelmart' },
  { adapter: bidvaultTsv, file: 'good.tsv', vendor: 'bidvault' },
  { adapter: countyPipe, file: 'good.pipe', vendor: 'tax_collector' },
];

export const recordsFixture = (format: string) => new URL(`../../../../fixtures/records/${format}/good.json`, import.meta.url);
