import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { assertText } from './read-lines.ts';
import { MAX_RECORD_CHARS, recordTooLong } from './record-limit.ts';

/**
 * A streaming RFC 4180 tokenizer: csv-parse tops out near 40,000 rows/s on our
 * 250-byte rows on one core, below the 50,000 the ingest needs, and its line
 * numbers drift on CRLF inside quotes. This one scans each chunk once, keeps the
 * raw text and start line of every record for the quarantine, and holds one
 * chunk plus one unfinished record at a time. A record ends at LF, CRLF or a
 * lone CR (old exports), and one longer than MAX_RECORD_CHARS rejects the file.
 *
 * Lenient where exports are sloppy: a quote inside an unquoted field, or text
 * after a closing quote, is kept literally. Strict where it signals a cut: an
 * open quote at end of file throws UnclosedQuoteError.
 */

export interface CsvRecord {
  values: string[];
  /** The record as written, without its line break. */
  raw: string;
  /** 1-based line the record starts on. */
  line: number;
  /** False for a last record with no line break after it. */
  terminated: boolean;
}

export class UnclosedQuoteError extends Error {
  constructor(readonly line: number) {
    super(`quoted field opened on line ${line} is never closed`);
  }
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

interface SplitRecord {
  values: string[];
  /** Where the record's text ends, before its line break. */
  contentEnd: number;
  /** Where the next record starts, after the line break. */
  end: number;
  terminated: boolean;
}

/** The unquoted part of a field: up to a delimiter or a line end (LF or CR). */
function fieldEnd(buf: string, from: number, delim: number): number {
  let k = from;
  const len = buf.length;
  while (k < len) {
    const c = buf.charCodeAt(k);
    if (c === delim || c === LF || c === CR) break;
    k++;
  }
  return k;
}

/**
 * One record from `start`, or null when `buf` ends before the record does and more
 * input may come. A record ends at LF, CRLF or a lone CR outside quotes; a CR that
 * is the last character of a chunk waits for the next one, which may open with its LF.
 */
function parseRecord(buf: string, start: number, delim: number, final: boolean, line: number): SplitRecord | null {
  const len = buf.length;
  const values: string[] = [];
  let i = start;
  for (;;) {
    let value: string;
    let k: number;
    if (i < len && buf.charCodeAt(i) === QUOTE) {
      value = '';
      let j = i + 1;
      for (;;) {
        const q = buf.indexOf('"', j);
        if (q === -1 || (q + 1 >= len && !final)) {
          if (!final) return null;
          throw new UnclosedQuoteError(line);
        }
        if (buf.charCodeAt(q + 1) === QUOTE) {
          value += buf.slice(j, q + 1);
          j = q + 2;
          continue;
        }
        value += buf.slice(j, q);
        k = q + 1;
        break;
      }
      // Text after the closing quote (sloppy exports) is kept as it stands.
      const m = fieldEnd(buf, k, delim);
      if (m > k) value += buf.slice(k, m);
      k = m;
    } else {
      k = fieldEnd(buf, i, delim);
      value = buf.slice(i, k);
    }
    if (k >= len) {
      if (!final) return null;
      values.push(value);
      return { values, contentEnd: len, end: len, terminated: false };
    }
    const c = buf.charCodeAt(k);
    if (c === delim) {
      values.push(value);
      i = k + 1;
      continue;
    }
    if (c === CR && k + 1 >= len && !final) return null;
    values.push(value);
    const end = c === CR && buf.charCodeAt(k + 1) === LF ? k + 2 : k + 1;
    return { values, contentEnd: k, end, terminated: true };
  }
}

/** Line ends in a record's text: LF, CRLF and a lone CR count one each. */
function countLineEnds(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  for (let i = s.indexOf('\r'); i !== -1; i = s.indexOf('\r', i + 1)) if (s.charCodeAt(i + 1) !== LF) n++;
  return n;
}

/**
 * Follows an unfinished record across chunks, so each chunk is scanned once: the
 * parser is called again only when the record's end has arrived. Its states mirror
 * parseRecord's reading (a quote opens a field only at its start; inside quotes a
 * doubled quote is a quote; text after a closing quote runs to a delimiter).
 */
class RecordEndScanner {
  private state: 'fieldStart' | 'unquoted' | 'quoted' | 'quoteInQuoted' | 'afterQuote' | 'crAtEnd' = 'fieldStart';
  constructor(private readonly delim: number) {}

  /** Index in `text` at which the record is known to end (the parser decides how), or -1. */
  scan(text: string): number {
    if (this.state === 'crAtEnd') return 0;
    const len = text.length;
    for (let i = 0; i < len; i++) {
      const c = text.charCodeAt(i);
      switch (this.state) {
        case 'quoted':
          if (c === QUOTE) this.state = 'quoteInQuoted';
          else {
            // The rest of a long quoted field, up to its next quote, in one step.
            const q = text.indexOf('"', i + 1);
            if (q === -1) return -1;
            i = q - 1;
          }
          continue;
        case 'quoteInQuoted':
          if (c === QUOTE) {
            this.state = 'quoted';
            continue;
          }
          break;
        case 'fieldStart':
          if (c === QUOTE) {
            this.state = 'quoted';
            continue;
          }
          break;
      }
      if (c === this.delim) this.state = 'fieldStart';
      else if (c === LF) return i;
      else if (c === CR) {
        if (i + 1 < len) return i;
        this.state = 'crAtEnd';
        return -1;
      } else if (this.state === 'fieldStart') this.state = 'unquoted';
      else if (this.state === 'quoteInQuoted') this.state = 'afterQuote';
    }
    return -1;
  }
}

export async function* csvRecords(source: Readable, delimiter: string, format: string): AsyncGenerator<CsvRecord> {
  const delim = delimiter.charCodeAt(0);
  const decoder = new StringDecoder('utf8');
  let line = 1;
  let first = true;
  let bomChecked = false;
  // The unfinished record at the end of the chunks read so far, as pieces, and how long it is.
  let pieces: string[] = [];
  let pending = 0;
  let scanner: RecordEndScanner | null = null;

  /** Every complete record of `buf`; what is left starts the unfinished one. */
  function* drain(buf: string, final: boolean): Generator<CsvRecord> {
    let pos = 0;
    while (pos < buf.length) {
      const rec = parseRecord(buf, pos, delim, final, line);
      if (rec === null) break;
      if (rec.contentEnd - pos > MAX_RECORD_CHARS) throw recordTooLong(format, line, 'record');
      const raw = buf.slice(pos, rec.contentEnd);
      const startLine = line;
      line += countLineEnds(buf.slice(pos, rec.end));
      pos = rec.end;
      if (rec.values.length === 1 && raw.trim() === '') continue;
      yield { values: rec.values, raw, line: startLine, terminated: rec.terminated };
    }
    if (pos < buf.length) {
      const rest = buf.slice(pos);
      pieces = [rest];
      pending = rest.length;
      scanner = new RecordEndScanner(delim);
      // Where the rest stands (inside quotes or not), so the next chunk is read from its state.
      scanner.scan(rest);
    }
  }

  function* read(text: string, final: boolean): Generator<CsvRecord> {
    if (scanner === null) return yield* drain(text, final);
    const end = final ? text.length : scanner.scan(text);
    if (end === -1) {
      pending += text.length;
      pieces.push(text);
    } else {
      pending += end;
    }
    if (pending > MAX_RECORD_CHARS) throw recordTooLong(format, line, 'record');
    if (end === -1) return;
    const buf = pieces.join('') + text;
    pieces = [];
    pending = 0;
    scanner = null;
    yield* drain(buf, final);
  }

  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    if (bytes.length === 0) continue;
    if (first) assertText(bytes, format);
    first = false;
    let text = decoder.write(bytes);
    if (!bomChecked && text.length > 0) {
      bomChecked = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.length > 0) yield* read(text, false);
  }
  yield* read(decoder.end(), true);
}
