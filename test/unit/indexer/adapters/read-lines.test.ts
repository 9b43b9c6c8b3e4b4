import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines, splitEscaped } from '../../../../indexer/adapters/read-lines.ts';
import { MAX_RECORD_CHARS } from '../../../../indexer/adapters/record-limit.ts';
import { FileRejectedError } from '../../../../indexer/errors.ts';
import { escapeField } from '../../../../services/generator/writers/sink.ts';

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

  it('reads a lone CR as a line end (old exports), and CRLF as one even when a chunk ends between them', async () => {
    for (const size of [1, 2, 3, 4, 1024]) {
      expect(await lines('a\rb\r\nc\r\rd\r', size)).toEqual([
        { line: 1, text: 'a', terminated: true },
        { line: 2, text: 'b', terminated: true },
        { line: 3, text: 'c', terminated: true },
        { line: 4, text: '', terminated: true },
        { line: 5, text: 'd', terminated: true },
      ]);
    }
    // The CR closes one chunk, the LF opens the next.
    const split = [];
    for await (const l of readLines(Readable.from([Buffer.from('x\r'), Buffer.from('\ny\n')]), 'test')) split.push(l.text);
    expect(split).toEqual(['x', 'y']);
  });

  it('takes a line of exactly MAX_RECORD_CHARS and rejects one character more as line_too_long, naming the line', async () => {
    const max = 'x'.repeat(MAX_RECORD_CHARS);
    expect((await lines(`h\n${max}\n`, 65536)).map((l) => l.text.length)).toEqual([1, MAX_RECORD_CHARS]);
    for (const text of [`h\n${max}x\n`, `h\n${max}x`, `h\r${max}xx\r`]) {
      const err = await lines(text, 65536).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FileRejectedError);
      expect(err).toMatchObject({ code: 'line_too_long' });
      expect((err as Error).message).toMatch(/line starting at line 2 is longer than 1048576 characters/);
    }
  });

  it('stops at the cap instead of reading an endless line to its end', async () => {
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled++;
        yield Buffer.alloc(65536, 97);
      }
    }
    await expect(readLines(Readable.from(endless()), 'test').next()).rejects.toMatchObject({ code: 'line_too_long' });
    expect(pulled).toBeLessThanOrEqual(MAX_RECORD_CHARS / 65536 + 2);
  });

  it('keeps its scan position: a 1 MiB line in 16-byte chunks reads in linear time', async () => {
    // Rescanning the unfinished line for each chunk (as the reader once did) cost 65,536 scans of
    // half a MiB on average here, tens of seconds; scanning each chunk once takes milliseconds.
    // The bound leaves two orders of magnitude for a busy machine.
    const started = performance.now();
    const got = await lines(`${'y'.repeat(MAX_RECORD_CHARS - 1)}\n`, 16);
    expect(got).toHaveLength(1);
    expect(got[0]!.text.length).toBe(MAX_RECORD_CHARS - 1);
    expect(performance.now() - started).toBeLessThan(5000);
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
