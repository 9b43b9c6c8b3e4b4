import type { FormatWriter } from './format-writer.ts';
import { bidvaultTsvWriter } from './bidvault-tsv.ts';
import { certbidJsonlWriter } from './certbid-jsonl.ts';
import { countyPipeWriter } from './county-pipe.ts';
import { lienportCsvWriter } from './lienport-csv.ts';
import { parcelmartCsvWriter } from './parcelmart-csv.ts';
import { taxgavelFixedWriter } from './taxgavel-fixed.ts';

/**
 * Every export format the generator can write, by the name platforms.json gives
 * it. A writer streams (header, rows, trailer) into `out` and resolves with the
 * row count once the last byte is handed to `out`; it does not end `out`.
 */
const WRITERS: readonly FormatWriter[] = [
  lienportCsvWriter,
  certbidJsonlWriter,
  taxgavelFixedWriter,
  parcelmartCsvWriter,
  bidvaultTsvWriter,
  countyPipeWriter,
];
const byFormat = new Map(WRITERS.map((w) => [w.format, w]));

export const WRITER_FORMATS: readonly string[] = WRITERS.map((w) => w.format);

export function writerFor(format: string): FormatWriter | undefined {
  return byFormat.get(format);
}
