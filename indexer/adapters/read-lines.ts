import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { FileRejectedError } from '../errors.ts';

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

/**
 * Streams a file as lines (LF or CRLF), holding one chunk at a time. Line
 * formats use it instead of readline because they must know whether the last
 * line ended with a line break.
 */
export async function* readLines(source: Readable, format: string): AsyncGenerator<Line> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let line = 0;
  let first = true;
  for await (const chunk of source) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    if (first && buf.length > 0) {
      assertText(buf, format);
      first = false;
    }
    let text = rest + decoder.write(buf);
    if (line === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let start = 0;
    let nl = text.indexOf('\n', start);
    while (nl !== -1) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      yield { line: ++line, text: text.slice(start, end), terminated: true };
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    rest = text.slice(start);
  }
  rest += decoder.end();
  if (rest.length > 0) yield { line: ++line, text: rest, terminated: false };
}
