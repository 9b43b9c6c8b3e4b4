import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';

/**
 * A file is read twice: the first pass validates every row into a spool on local
 * disk, the second sends the spool to OpenSearch. Nothing is indexed until the
 * whole file has proved readable (not truncated, not another county's), which is
 * what lets a rejected file change nothing, in memory that does not grow with it.
 *
 * Spool line: <source line>\t<document id>\t<document JSON>
 */
export interface SpoolEntry {
  line: number;
  id: string;
  json: string;
}

/** Lines are gathered into chunks of this size: one write call per chunk, not per row. */
const CHUNK_BYTES = 256 * 1024;

export class SpoolWriter {
  readonly path: string;
  private readonly out: WriteStream;
  private pending: string[] = [];
  private pendingBytes = 0;
  count = 0;

  constructor(name: string) {
    this.path = join(tmpdir(), `taxcert-spool-${name}-${process.pid}-${Date.now()}.tsv`);
    this.out = createWriteStream(this.path);
  }

  /** Resolves at once unless the disk is behind, so the caller's loop rarely waits. */
  write(line: number, id: string, doc: unknown): Promise<void> | undefined {
    this.count++;
    const text = `${line}\t${id}\t${JSON.stringify(doc)}\n`;
    this.pending.push(text);
    this.pendingBytes += text.length;
    if (this.pendingBytes < CHUNK_BYTES) return undefined;
    return this.flushChunk();
  }

  private flushChunk(): Promise<void> | undefined {
    const chunk = this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    if (this.out.write(chunk)) return undefined;
    return once(this.out, 'drain').then(() => undefined);
  }

  async close(): Promise<void> {
    if (this.pending.length > 0) await this.flushChunk();
    this.out.end();
    await once(this.out, 'finish');
  }

  async remove(): Promise<void> {
    if (!this.out.closed) {
      // Abandoning a spool mid-write (a rejected file) must not surface as an uncaught stream error.
      this.out.on('error', () => undefined);
      this.out.destroy();
    }
    await rm(this.path, { force: true });
  }
}

export async function* readSpool(path: string): AsyncGenerator<SpoolEntry> {
  const lines = createInterface({ input: createReadStream(path, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  for await (const text of lines) {
    if (text === '') continue;
    const a = text.indexOf('\t');
    const b = text.indexOf('\t', a + 1);
    yield { line: Number(text.slice(0, a)), id: text.slice(a + 1, b), json: text.slice(b + 1) };
  }
}
