import type { Readable } from 'node:stream';
import { FileRejectedError } from '../errors.ts';
import { csvRecords, UnclosedQuoteError } from './csv-records.ts';
import { problemRow } from './fields.ts';
import type { RawRow } from './types.ts';

export interface CsvLayout {
  format: string;
  delimiter: string;
  header: readonly string[];
  /**
   * The platform always ends its last row with a line break, so a file without
   * one was cut off. Where the export does not promise that (fully quoted
   * files), only an unclosed quote or a short last row count as truncated.
   */
  requireFinalNewline: boolean;
}

function show(values: readonly string[]): string {
  const s = values.map((v) => JSON.stringify(v)).join(',');
  return s.length > 200 ? `${s.slice(0, 200)}...` : s;
}

/**
 * Streams a delimited file with a header row, one row at a time. File-level
 * faults become FileRejectedError; a row with the wrong number of columns is
 * passed on marked, so the rest of the file still loads.
 */
export async function* readCsv(source: Readable, layout: CsvLayout): AsyncGenerator<RawRow> {
  const { format, header } = layout;
  let headerSeen = false;
  let rows = 0;
  let last: { values: string[]; line: number; terminated: boolean } | null = null;
  try {
    for await (const rec of csvRecords(source, layout.delimiter, format)) {
      const { values, line, raw } = rec;
      if (!headerSeen) {
        if (values.length !== header.length || values.some((v, i) => v.trim() !== header[i]))
          throw new FileRejectedError('unknown_format', `expected a ${format} header ${show(header)} but found ${show(values)}`);
        headerSeen = true;
        continue;
      }
      last = rec;
      rows++;
      const fields: Record<string, string> = {};
      for (let i = 0; i < values.length; i++) fields[header[i] ?? `#${i + 1}`] = values[i] ?? '';
      if (values.length !== header.length) yield problemRow(line, raw, fields, `has ${values.length} columns, expected ${header.length}`);
      else yield { line, raw, fields };
    }
  } catch (err) {
    if (!(err instanceof UnclosedQuoteError)) throw err;
    if (!headerSeen) throw new FileRejectedError('unknown_format', `expected a ${format} file but it does not parse: ${err.message}`);
    throw new FileRejectedError('truncated_file', `${format} file ends inside a quoted field (${err.message}): it was cut off`);
  }
  if (!headerSeen) throw new FileRejectedError('empty_file', `${format} file is empty: expected a header and rows`);
  if (rows === 0) throw new FileRejectedError('empty_file', `${format} file has a header but no rows`);
  if (last !== null && !last.terminated && (layout.requireFinalNewline || last.values.length < header.length))
    throw new FileRejectedError(
      'truncated_file',
      `${format} file ends without a line break after the row at line ${last.line}: it was cut off`,
    );
}
