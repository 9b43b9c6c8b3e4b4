import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, lstatSync, mkdtempSync, readdirSync, rmSync, type WriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import type { RowProblem } from '../adapters/types.ts';
import { isPidAlive } from '../../services/pid-alive.ts';

/**
 * A file is read twice: the first pass validates every row into spools on local
 * disk, the second sends them on. Nothing is indexed until the whole file has
 * proved readable (not truncated, not another county's), which is what lets a
 * rejected file change nothing, in memory that does not grow with it.
 */

/**
 * Spools hold every row of a county file, owner names and addresses included. They lived in the
 * shared temp folder under guessable names, readable by any local user and open to a planted file
 * or link at the next name, and a killed worker's spools stayed for ever. Now
 * each worker process writes in a directory of its own, made by mkdtemp (mode 0700, a random
 * name no one could have made first), named for its pid so that a later worker can sweep the
 * directories of workers that died. One process may run several workers (npm start, tests):
 * they share its directory, which is why it is removed only when the process exits.
 */
const SPOOLS = 'taxcert-spools-';
let ownDirectory: string | undefined;

export function spoolDirectory(): string {
  if (ownDirectory === undefined) {
    const dir = mkdtempSync(join(tmpdir(), `${SPOOLS}${process.pid}-`));
    // A process that exits normally takes its directory along; a killed one leaves it to the sweep.
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    ownDirectory = dir;
  }
  return ownDirectory;
}

/**
 * Removes the spool directories of worker processes that are gone, and the loose spool files the
 * old layout left in the temp folder (taxcert-spool-<name>-<pid>-<ms>). Only entries this user
 * owns, and a link is removed as a link. Returns how many entries were removed.
 */
export function sweepStaleSpools(dir: string = tmpdir()): number {
  let removed = 0;
  for (const entry of readdirSync(dir)) {
    const pid = Number((/^taxcert-spools-(\d+)-[A-Za-z0-9]{6}$/.exec(entry) ?? /^taxcert-spool-.+-(\d+)-\d{13}$/.exec(entry))?.[1]);
    if (!Number.isSafeInteger(pid) || pid === process.pid || isPidAlive(pid)) continue;
    const path = join(dir, entry);
    try {
      if (lstatSync(path).uid !== process.getuid?.()) continue;
      rmSync(path, { recursive: true, force: true });
      removed++;
    } catch {
      // Swept by another worker starting at the same moment, or not ours to remove.
    }
  }
  return removed;
}

/** Text is encoded into chunks of this size: one write call per chunk, not per row. */
const CHUNK_BYTES = 256 * 1024;

/**
 * Appends text to a temporary file, counting the bytes written. Text is encoded
 * straight into one of two reusable buffers (one filling while the other is
 * written), so a spool allocates nothing per row or per chunk: no joined strings
 * for the collector to move, no new buffers for it to account for.
 */
class ChunkedFile {
  readonly path: string;
  /** Opened, like the chunks allocated, on first use: most quarantine spools stay empty. */
  private out: WriteStream | undefined;
  private readonly chunks: (Buffer | undefined)[] = [undefined, undefined];
  /** Whether each chunk is still being written out. */
  private readonly busy = [false, false];
  private current = 0;
  private used = 0;
  /** Bytes appended so far (UTF-8): the file's length once closed. */
  bytes = 0;

  constructor(name: string) {
    this.path = join(spoolDirectory(), `${name}-${randomUUID()}`);
  }

  private file(): WriteStream {
    // 'wx': a file someone placed at this path (or a link to one) is an error, never written through.
    this.out ??= createWriteStream(this.path, { flags: 'wx', mode: 0o600 });
    return this.out;
  }

  /**
   * Takes the text at once (bytes counts it on return) and resolves at once unless
   * the disk is behind, so the caller's loop rarely waits.
   */
  append(text: string): Promise<void> | undefined {
    // Three bytes per UTF-16 unit is the most UTF-8 can take.
    if (this.used + text.length * 3 > CHUNK_BYTES) {
      const wait = this.flush();
      if (text.length * 3 > CHUNK_BYTES) {
        // Longer than a chunk (a huge legal description): written on its own.
        const big = Buffer.from(text);
        this.bytes += big.length;
        const out = this.file();
        return out.write(big) ? wait : once(out, 'drain').then(() => undefined);
      }
      this.put(text);
      return wait;
    }
    this.put(text);
    return undefined;
  }

  private put(text: string): void {
    this.chunks[this.current] ??= Buffer.allocUnsafe(CHUNK_BYTES);
    const n = this.chunks[this.current]!.write(text, this.used);
    this.used += n;
    this.bytes += n;
  }

  /** Hands the filled part of the current chunk to the file and fills the other one next. */
  flush(): Promise<void> | undefined {
    if (this.used === 0) return undefined;
    const index = this.current;
    this.busy[index] = true;
    const out = this.file();
    const more = out.write(this.chunks[index]!.subarray(0, this.used), () => {
      this.busy[index] = false;
    });
    this.current = 1 - index;
    this.used = 0;
    // A caller that did not wait for the disk finds the other chunk still being written: take a new one.
    if (this.busy[this.current]) this.chunks[this.current] = undefined;
    return more ? undefined : once(out, 'drain').then(() => undefined);
  }

  /** Everything appended is on disk; a file nothing was appended to is never created. */
  async close(): Promise<void> {
    await this.flush();
    if (!this.out) return;
    this.out.end();
    await once(this.out, 'finish');
  }

  async remove(): Promise<void> {
    if (this.out && !this.out.closed) {
      // Abandoning a spool mid-write (a rejected file) must not surface as an uncaught stream error.
      this.out.on('error', () => undefined);
      this.out.destroy();
    }
    await rm(this.path, { force: true });
  }
}

export interface BulkBatch {
  /** _bulk NDJSON: an `index` action line and a source line per document. */
  body: Buffer;
  docs: number;
}

export interface BulkSpoolOptions {
  /** Documents per _bulk request. */
  batchDocs?: number;
  /** Approximate bytes per _bulk request; a batch closes at whichever limit comes first. */
  batchBytes?: number;
}

/**
 * Valid documents, written as the _bulk request bodies they will be sent as and
 * cut into batches while they are written, so the second pass sends byte ranges
 * of this file and does no work per document.
 */
export class BulkSpool {
  private readonly file: ChunkedFile;
  private readonly batchDocs: number;
  private readonly batchChars: number;
  /** End offset and document count of every closed batch; one entry per batch, not per document. */
  private readonly ends: { end: number; docs: number }[] = [];
  private openDocs = 0;
  private openChars = 0;
  count = 0;

  constructor(name: string, options: BulkSpoolOptions = {}) {
    this.file = new ChunkedFile(name);
    this.batchDocs = options.batchDocs ?? 2000;
    this.batchChars = options.batchBytes ?? 5 * 1024 * 1024;
  }

  get path(): string {
    return this.file.path;
  }

  add(id: string, doc: unknown): Promise<void> | undefined {
    return this.addJson(id, JSON.stringify(doc));
  }

  /** A document given as its JSON text. Ids are our own hex digests (cert_…, hld_…), so they need no JSON escaping. */
  addJson(id: string, json: string): Promise<void> | undefined {
    const text = `{"index":{"_id":"${id}"}}\n${json}\n`;
    this.count++;
    this.openDocs++;
    this.openChars += text.length;
    const wait = this.file.append(text);
    if (this.openDocs < this.batchDocs && this.openChars < this.batchChars) return wait;
    const closed = this.closeBatch();
    return wait && closed ? Promise.all([wait, closed]).then(() => undefined) : (wait ?? closed);
  }

  /** A batch ends on a chunk boundary, so its end offset is the bytes written so far. */
  private closeBatch(): Promise<void> | undefined {
    const wait = this.file.flush();
    this.ends.push({ end: this.file.bytes, docs: this.openDocs });
    this.openDocs = 0;
    this.openChars = 0;
    return wait;
  }

  async close(): Promise<void> {
    if (this.openDocs > 0) await this.closeBatch();
    await this.file.close();
  }

  /** The batches in order, one read at a time. */
  async *batches(): AsyncGenerator<BulkBatch> {
    if (this.ends.length === 0) return;
    const handle = await open(this.file.path, 'r');
    try {
      let start = 0;
      for (const { end, docs } of this.ends) {
        const body = Buffer.allocUnsafe(end - start);
        const { bytesRead } = await handle.read(body, 0, body.length, start);
        if (bytesRead !== body.length) throw new Error(`spool ${this.file.path} is shorter than written`);
        yield { body, docs };
        start = end;
      }
    } finally {
      await handle.close();
    }
  }

  /** Every document with its id; read again only to quarantine the few the engine refused. */
  async *docs(): AsyncGenerator<{ id: string; json: string }> {
    let id: string | undefined;
    for await (const text of spoolLines(this.file.path)) {
      if (id === undefined) id = (JSON.parse(text) as { index: { _id: string } }).index._id;
      else {
        yield { id, json: text };
        id = undefined;
      }
    }
  }

  remove(): Promise<void> {
    return this.file.remove();
  }
}

/** A row refused in pass 1 (or by OpenSearch in pass 2), waiting for the file to prove sound. */
export interface HeldRow {
  line: number;
  raw: string;
  reasons: RowProblem[];
}

/** Rows refused in pass 1, held on disk until the file is known to load: a rejected file quarantines nothing. */
export class QuarantineSpool {
  private readonly file: ChunkedFile;
  count = 0;

  constructor(name: string) {
    this.file = new ChunkedFile(name);
  }

  get path(): string {
    return this.file.path;
  }

  add(row: HeldRow): Promise<void> | undefined {
    this.count++;
    return this.file.append(`${JSON.stringify(row)}\n`);
  }

  close(): Promise<void> {
    return this.file.close();
  }

  async *rows(): AsyncGenerator<HeldRow> {
    if (this.count === 0) return;
    for await (const text of spoolLines(this.file.path)) yield JSON.parse(text) as HeldRow;
  }

  remove(): Promise<void> {
    return this.file.remove();
  }
}

/** The spool's lines; JSON escapes every line break, so a line is one whole record. */
async function* spoolLines(path: string): AsyncGenerator<string> {
  const lines = createInterface({ input: createReadStream(path, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  for await (const text of lines) if (text !== '') yield text;
}
