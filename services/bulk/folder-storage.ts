import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileDigest } from './digest.ts';
import { type BulkStorage, BulkVerifyError, type StoredFile } from './storage.ts';

/**
 * The storage driver of one folder (BULK_DIR). Temp files are built in its `.tmp` folder,
 * on the same file system, so the final rename is atomic: a reader opening the name gets
 * the old file or the new one, never a mix.
 */
export function folderStorage(root: string): BulkStorage {
  const tmp = join(root, '.tmp');
  const ready = Promise.all([mkdir(root, { recursive: true }), mkdir(tmp, { recursive: true })]);
  // A storage nobody writes to (an API host that only serves downloads) never awaits it: its failure
  // (the folder's parent gone) is reported by the first put, not as an unhandled rejection.
  ready.catch(() => undefined);
  return {
    tempPath: (name) => join(tmp, `${name}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`),
    async put(name, localFile, expected) {
      await ready;
      const found = await fileDigest(localFile);
      if (found.bytes !== expected.bytes || found.sha256 !== expected.sha256) {
        await rm(localFile, { force: true });
        throw new BulkVerifyError(
          `${name}: the written file has ${found.bytes} bytes and sha256 ${found.sha256}, expected ${expected.bytes} and ${expected.sha256}`,
        );
      }
      await rename(localFile, join(root, name));
    },
    async stat(name): Promise<StoredFile | null> {
      try {
        const s = await stat(join(root, name));
        return s.isFile() ? { bytes: s.size, modifiedAt: s.mtime } : null;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    read(name, range): Readable {
      // 1 MiB reads: a download is one large sequential read, and 64 KiB chunks (the default) cost
      // a read, a write and an event-loop turn each 64 KiB.
      const highWaterMark = 1 << 20;
      return createReadStream(join(root, name), range ? { start: range.start, end: range.end, highWaterMark } : { highWaterMark });
    },
    async list() {
      await ready;
      const entries = await readdir(root, { withFileTypes: true });
      return entries.filter((e) => e.isFile()).map((e) => e.name);
    },
    async remove(name) {
      await rm(join(root, name), { force: true });
    },
  };
}
