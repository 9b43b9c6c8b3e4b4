import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

/**
 * A gzipped file written a chunk at a time, hashing the compressed bytes on their way to
 * disk: the sha256 and size the storage later checks the file against. write() waits when
 * the file is behind, so a county's rows pass through in pages and never pile up in memory.
 */
export class GzipSink {
  private readonly gzip = createGzip({ level: 6 });
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private readonly done: Promise<void>;

  constructor(path: string) {
    const tap = new Transform({
      transform: (chunk: Buffer, _enc, next) => {
        this.hash.update(chunk);
        this.bytes += chunk.length;
        next(null, chunk);
      },
    });
    this.done = pipeline(this.gzip, tap, createWriteStream(path));
    // A failure surfaces through close(); until then it must not count as unhandled.
    this.done.catch(() => undefined);
  }

  async write(text: string): Promise<void> {
    if (!this.gzip.write(text)) await once(this.gzip, 'drain');
  }

  async close(): Promise<{ bytes: number; sha256: string }> {
    this.gzip.end();
    await this.done;
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }
}
