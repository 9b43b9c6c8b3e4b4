import { bidvaultTsv } from './bidvault-tsv.ts';
import { certbidJsonl } from './certbid-jsonl.ts';
import { countyPipe } from './county-pipe.ts';
import { lienportCsv } from './lienport-csv.ts';
import { taxgavelFixed } from './taxgavel-fixed.ts';
import { parcelmartCsv } from './parcelmart-csv.ts';
import type { FormatAdapter } from './types.ts';

/** Every export format we read, by the name platforms.json gives it. */
const ADAPTERS: readonly FormatAdapter[] = [lienportCsv, certbidJsonl, taxgavelFixed, parcelmartCsv, bidvaultTsv, countyPipe];
const byFormat = new Map(ADAPTERS.map((a) => [a.format, a]));

export const FORMATS: readonly string[] = ADAPTERS.map((a) => a.format);

export function adapterFor(format: string): FormatAdapter | undefined {
  return byFormat.get(format);
}
