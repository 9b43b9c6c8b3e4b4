import { type Readable, pipeline } from 'node:stream';
import { parse } from 'csv-parse';
import { FileRejectedError } from '../errors.ts';
import { problemRow } from './fields.ts';
import { assertText } from './read-lines.ts';
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

interface ParsedRecord {
  record: string[];
  raw: string;
}

/**
 * Lines a record's raw text spans. csv-parse's own info.lines counts a CRLF
 * inside quotes twice, and its raw text of a CRLF row ends in the CR alone, so
 * we count ourselves.
 */
function linesSpanned(raw: string): number {
  let n = raw.charCodeAt(raw.length - 1) === 13 ? 1 : 0;
  for (let i = raw.indexOf('\n'); i !== -1; i = raw.indexOf('\n', i + 1)) n++;
  return n;
}

function show(values: readonly string[]): string {
  const s = values.map((v) => JSON.stringify(v)).join(',');
  return s.length > 200 ? `${s.slice(0, 200)}...` : s;
}

/**
 * Streams a delimited file with a header row through csv-parse, one row at a
 * time. File-level faults become FileRejectedError; a row with the wrong number
 * of columns is passed on marked, so the rest of the file still loads.
 */
export async function* readCsv(source: Readable, layout: CsvLayout): AsyncGenerator<RawRow> {
  const { format, header } = layout;
  let lastByte = -1;
  let sawBytes = false;
  const parser = parse({
    delimiter: layout.delimiter,
    bom: true,
    raw: true,
    relax_column_count: true,
    relax_quotes: true,
  });
  pipeline(
    source,
    async function* tap(chunks: AsyncIterable<Buffer | string>) {
      for await (const chunk of chunks) {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        if (buf.length === 0) continue;
        if (!sawBytes) assertText(buf, format);
        sawBytes = true;
        lastByte = buf[buf.length - 1] ?? -1;
        yield buf;
      }
    },
    parser,
    () => {},
  );

  let headerSeen = false;
  let rows = 0;
  let nextLine = 1;
  let last: { record: string[]; line: number } | null = null;
  try {
    for await (const rec of parser as AsyncIterable<ParsedRecord>) {
      const { record } = rec;
      const line = nextLine;
      nextLine += linesSpanned(rec.raw);
      if (record.length === 1 && record[0] === '' && rec.raw.trim() === '') continue;
      const raw = rec.raw.replace(/\r?\n?$/, '').replace(/\r$/, '');
      if (!headerSeen) {
        if (record.length !== header.length || record.some((v, i) => v.trim() !== header[i]))
          throw new FileRejectedError(
            'unknown_format',
            `expected a ${format} header ${show(header)} but found ${show(record)}`,
          );
        headerSeen = true;
        continue;
      }
      last = { record, line };
      rows++;
      const fields: Record<string, string> = {};
      for (let i = 0; i < record.length; i++) fields[header[i] ?? `#${i + 1}`] = record[i] ?? '';
      if (record.length !== header.length)
        yield problemRow(line, raw, fields, `has ${record.length} columns, expected ${header.length}`);
      else yield { line, raw, fields };
    }
  } catch (err) {
    if (err instanceof FileRejectedError) throw err;
    const code = (err as { code?: string }).code;
    if (headerSeen && code === 'CSV_QUOTE_NOT_CLOSED')
      throw new FileRejectedError('truncated_file', `${format} file ends inside a quoted field: it was cut off`);
    if (!headerSeen)
      throw new FileRejectedError('unknown_format', `expected a ${format} file but it does not parse: ${(err as Error).message}`);
    throw new FileRejectedError('unreadable_file', `${format} file could not be read: ${(err as Error).message}`);
  }
  if (!headerSeen) throw new FileRejectedError('empty_file', `${format} file is empty: expected a header and rows`);
  if (rows === 0) throw new FileRejectedError('empty_file', `${format} file has a header but no rows`);
  const unterminated = lastByte !== 0x0a;
  if (unterminated && (layout.requireFinalNewline || (last !== null && last.record.length < header.length)))
    throw new FileRejectedError(
      'truncated_file',
      `${format} file ends without a line break after row at line ${last?.line}: it was cut off`,
    );
}
