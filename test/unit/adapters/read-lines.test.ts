import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines, splitEscaped } from '../../../indexer/adapters/read-lines.ts';
import { escapeField } from '../../../scripts/generator/writers/sink.ts';

async function lines(text: string, chunkBytes: number) {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkBytes) chunks.push(bytes.subarray(i, i + chunkBytes));
  const out = [];
  for await (const l of readLines(Readable.from(chunks), 'test')) out.push(l);
  return out;
}

describe('readLines', () => {
  it('splits LF and CRLF lines across any chunk boundary and flags a cut last line', async () => {
    for (const size of [1, 2, 5, 1024]) {
      expect(await lines('\uFEFFaé\r\n\r\nb😀\nc', size)).toEqual([
        { line: 1, text: 'aé', terminated: true },
        { line: 2, text: '', terminated: true },
        { line: 3, text: 'b😀', terminated: true },
        { line: 4, text: 'c', terminated: false },
      ]);
    }
  });
});

describe('escaped fields', () => {
  it.each([
    ['plain', '\t'],
    ['tab\there, line\nbreak, cr\r, back\\slash', '\t'],
    ['pipe | and \\| and \n', '|'],
    ['trailing backslash\\', '|'],
  ] as const)('%j survives escape and split on %j', (value, sep) => {
    const line = ['a', escapeField(value, sep), 'z'].join(sep);
    expect(line.includes('\n')).toBe(false);
    expect(splitEscaped(line, sep)).toEqual(['a', value, 'z']);
  });
});
