import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { FileRejectedError } from '../errors.ts';
import { problemRow } from './fields.ts';
import { MAX_RECORD_CHARS, recordTooLong } from './record-limit.ts';
import type { RawRow } from './types.ts';

export interface Line {
  /** 1-based. */
  line: number;
  text: string;
  /** False only for a last line with no line break after it: a cut-off file. */
  terminated: boolean;
}

/** Fails a file whose first bytes hold NUL: no text export contains one. */
export function assertText(chunk: Buffer, format: string): void {
  if (chunk.subarray(0, 8192).includes(0))
    throw new FileRejectedError('unknown_format', `expected a ${format} text file but found binary data`);
}

const LF = 10;
const CR = 13;

/**
 * Streams a file as lines, holding one chunk and one unfinished line at a time.
 * Line formats use it instead of readline because they must know whether the last
 * line ended with a line break.
 *
 * A line ends at LF, CRLF or a lone CR (old exports end lines with CR alone, which
 * read as one endless line before); a CRLF split across two chunks is still one
 * line end. Each chunk is scanned once: the unfinished line is kept as pieces and
 * never rescanned (rescanning it for every chunk made a 64 MB line cost 28 s), and
 * a line longer than MAX_RECORD_CHARS rejects the file (line_too_long) before it
 * can fill the heap.
 */
export async function* readLines(source: Readable, format: string): AsyncGenerator<Line> {
  const decoder = new StringDecoder('utf8');
  let pieces: string[] = [];
  let pending = 0;
  let line = 0;
  let first = true;
  let bomChecked = false;
  // The previous chunk ended with a CR: an LF opening this one belongs to it.
  let afterCr = false;

  function* scan(text: string): Generator<Line> {
    let pos = 0;
    if (!bomChecked && text.length > 0) {
      bomChecked = true;
      if (text.charCodeAt(0) === 0xfeff) pos = 1;
    }
    if (afterCr && pos < text.length) {
      afterCr = false;
      if (text.charCodeAt(pos) === LF) pos++;
    }
    let lf = text.indexOf('\n', pos);
    let cr = text.indexOf('\r', pos);
    while (lf !== -1 || cr !== -1) {
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      if (pending + end - pos > MAX_RECORD_CHARS) throw recordTooLong(format, line + 1);
      const piece = text.slice(pos, end);
      const joined = pieces.length === 0 ? piece : pieces.join('') + piece;
      pieces = [];
      pending = 0;
      yield { line: ++line, text: joined, terminated: true };
      pos = end + 1;
      if (text.charCodeAt(end) === CR) {
        if (pos === text.length) afterCr = true;
        else if (text.charCodeAt(pos) === LF) pos++;
      }
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
      if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
    }
    if (pos < text.length) {
      pending += text.length - pos;
      if (pending > MAX_RECORD_CHARS) throw recordTooLong(format, line + 1);
      pieces.push(text.slice(pos));
    }
  }

  for await (const chunk of source) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    if (first && buf.length > 0) {
      assertText(buf, format);
      first = false;
    }
    yield* scan(decoder.write(buf));
  }
  yield* scan(decoder.end());
  if (pending > 0) yield { line: ++line, text: pieces.join(''), terminated: false };
}

/**
 * Splits a line on `sep`, undoing the backslash escapes our line formats use for
 * text that would break a line or a column: \\ \n \r \t and backslash-sep.
 */
export function splitEscaped(line: string, sep: string): string[] {
  if (!line.includes('\\')) return line.split(sep);
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && i + 1 < line.length) {
      const n = line[++i];
      cur += n === 'n' ? '\n' : n === 'r' ? '\r' : n === 't' ? '\t' : n;
    } else if (c === sep) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

export interface TableLayout {
  format: string;
  sep: string;
  header: readonly string[];
  /** Prefix of the trailer line that carries the row count ("EOF|"), or null when the format has none. */
  trailerPrefix: string | null;
}

function show(values: readonly string[], sep: string): string {
  const s = JSON.stringify(values.join(sep));
  return s.length > 200 ? `${s.slice(0, 200)}..."` : s;
}

/**
 * Streams a header + one-row-per-line file. Every line ends with a line break,
 * so a last line without one means the file was cut off; where the format has
 * a trailer, a missing trailer or a count that disagrees means the same.
 */
export async function* readTable(source: Readable, layout: TableLayout): AsyncGenerator<RawRow> {
  const { format, sep, header, trailerPrefix } = layout;
  let headerSeen = false;
  let rows = 0;
  let trailer: { line: number; count: string } | null = null;
  for await (const { line, text, terminated } of readLines(source, format)) {
    if (text.trim() === '') continue;
    if (!terminated)
      throw new FileRejectedError('truncated_file', `${format} file ends without a line break at line ${line}: it was cut off`);
    if (trailer !== null)
      throw new FileRejectedError('truncated_file', `${format} file has lines after its trailer (line ${trailer.line})`);
    if (!headerSeen) {
      const found = text.split(sep).map((h) => h.trim());
      if (found.length !== header.length || found.some((h, i) => h !== header[i]))
        throw new FileRejectedError('unknown_format', `expected a ${format} header ${show(header, sep)} but found ${show(found, sep)}`);
      headerSeen = true;
      continue;
    }
    if (trailerPrefix !== null && text.startsWith(trailerPrefix)) {
      trailer = { line, count: text.slice(trailerPrefix.length).trim() };
      continue;
    }
    rows++;
    const values = splitEscaped(text, sep);
    const fields: Record<string, string> = {};
    for (let i = 0; i < values.length; i++) fields[header[i] ?? `#${i + 1}`] = values[i] ?? '';
    if (values.length !== header.length) yield problemRow(line, text, fields, `has ${values.length} columns, expected ${header.length}`);
    else yield { line, raw: text, fields };
  }
  if (!headerSeen) throw new FileRejectedError('empty_file', `${format} file is empty: expected a header and rows`);
  if (trailerPrefix !== null) {
    if (trailer === null)
      throw new FileRejectedError('truncated_file', `${format} file has no "${trailerPrefix}<count>" trailer: it was cut off`);
    if (trailer.count !== String(rows))
      throw new FileRejectedError(
        'truncated_file',
        `${format} trailer says ${JSON.stringify(trailer.count)} rows but the file has ${rows}`,
      );
  }
  if (rows === 0) throw new FileRejectedError('empty_file', `${format} file has a header but no rows`);
}
