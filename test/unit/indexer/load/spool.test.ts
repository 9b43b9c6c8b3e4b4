import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BulkSpool, QuarantineSpool, spoolDirectory, sweepStaleSpools } from '../../../../indexer/load/spool.ts';

const docs = Array.from({ length: 25 }, (_, i) => ({ id: `cert_${String(i).padStart(20, '0')}`, doc: { n: i, owner: `Ówner ${i}` } }));
const pair = (d: { id: string; doc: object }) => `{"index":{"_id":"${d.id}"}}\n${JSON.stringify(d.doc)}\n`;

async function fill(spool: BulkSpool, items: { id: string; doc: object }[] = docs): Promise<void> {
  for (const d of items) await spool.add(d.id, d.doc);
  await spool.close();
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('BulkSpool', () => {
  it('writes each document as a ready _bulk pair and cuts batches by document count', async () => {
    const spool = new BulkSpool('unit-docs', { batchDocs: 10 });
    try {
      await fill(spool);
      expect(readFileSync(spool.path, 'utf8')).toBe(docs.map(pair).join(''));
      const batches = await collect(spool.batches());
      expect(batches.map((b) => b.docs)).toEqual([10, 10, 5]);
      expect(batches.map((b) => b.body.toString())).toEqual([
        docs.slice(0, 10).map(pair).join(''),
        docs.slice(10, 20).map(pair).join(''),
        docs.slice(20).map(pair).join(''),
      ]);
      expect(spool.count).toBe(25);
    } finally {
      await spool.remove();
    }
  });

  it('closes a batch at the size limit on a document boundary; offsets are bytes, so multi-byte text cuts cleanly', async () => {
    const spool = new BulkSpool('unit-bytes', { batchBytes: 3 * pair(docs[0]!).length });
    try {
      await fill(spool);
      const batches = await collect(spool.batches());
      expect(batches.every((b) => b.docs === 3 || b === batches.at(-1))).toBe(true);
      expect(batches.reduce((n, b) => n + b.docs, 0)).toBe(25);
      expect(Buffer.concat(batches.map((b) => b.body)).toString()).toBe(docs.map(pair).join(''));
      for (const b of batches) expect(b.body.toString().split('\n').length - 1).toBe(2 * b.docs);
    } finally {
      await spool.remove();
    }
  });

  it('reads its documents back with their ids and is gone after remove()', async () => {
    const spool = new BulkSpool('unit-read');
    await fill(spool, docs.slice(0, 3));
    expect(await collect(spool.docs())).toEqual(docs.slice(0, 3).map((d) => ({ id: d.id, json: JSON.stringify(d.doc) })));
    await spool.remove();
    expect(existsSync(spool.path)).toBe(false);
  });

  it('keeps order and bytes across many chunks and a document longer than a chunk', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({
      id: `cert_${String(i).padStart(20, '0')}`,
      doc: { n: i, legal: i === 1500 ? 'LOT 1 BLK 2 '.repeat(40_000) : `Ω LOT ${i} `.repeat(20) },
    }));
    const spool = new BulkSpool('unit-chunks', { batchDocs: 700 });
    try {
      await fill(spool, many);
      const whole = many.map(pair).join('');
      expect(readFileSync(spool.path, 'utf8')).toBe(whole);
      const batches = await collect(spool.batches());
      expect(batches.map((b) => b.docs)).toEqual([700, 700, 700, 700, 200]);
      expect(Buffer.concat(batches.map((b) => b.body)).toString()).toBe(whole);
    } finally {
      await spool.remove();
    }
  });

  it('an empty spool has no batches and never touches the disk', async () => {
    const spool = new BulkSpool('unit-empty');
    try {
      await spool.close();
      expect(await collect(spool.batches())).toEqual([]);
      expect(existsSync(spool.path)).toBe(false);
    } finally {
      await spool.remove();
    }
  });
});

describe('QuarantineSpool', () => {
  it('holds rows with line, raw text (tabs, quotes, line breaks) and every reason, in order', async () => {
    const spool = new QuarantineSpool('unit-held');
    const rows = [
      {
        line: 4,
        raw: 'a\t"b"\r\nc',
        reasons: [
          { field: 'face_amount', problem: '"x" is not a dollar amount' },
          { field: 'sale_date', problem: 'required' },
        ],
      },
      { line: 9, raw: '', reasons: [{ field: 'row', problem: 'empty' }] },
    ];
    try {
      for (const r of rows) await spool.add(r);
      await spool.close();
      expect(await collect(spool.rows())).toEqual(rows);
      expect(spool.count).toBe(2);
    } finally {
      await spool.remove();
    }
  });
});

describe('QuarantineSpool with nothing held', () => {
  it('yields no rows and creates no file', async () => {
    const spool = new QuarantineSpool('unit-none');
    await spool.close();
    expect(await collect(spool.rows())).toEqual([]);
    expect(existsSync(spool.path)).toBe(false);
    await spool.remove();
  });
});

// Spools hold every row of a county file, so they must be private. They were once written as
// $TMPDIR/taxcert-spool-<name>-<pid>-<ms>, mode 0644 under the usual umask, opened without O_EXCL,
// so any local user could read them or plant a link at the next name, and a killed worker's spools
// stayed for ever.
describe('spool files are private', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'taxcert-spool-test-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('live in a 0700 directory of this process, opened with mode 0600 whatever the umask', async () => {
    const before = process.umask(0);
    const spool = new BulkSpool('unit-private');
    try {
      await fill(spool);
      expect(dirname(spool.path)).toBe(spoolDirectory());
      expect(basename(spoolDirectory())).toMatch(new RegExp(`^taxcert-spools-${process.pid}-`));
      expect(statSync(spoolDirectory()).mode & 0o777).toBe(0o700);
      expect(statSync(spool.path).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(before);
      await spool.remove();
    }
  });

  it('never writes through a file or link already at its path', async () => {
    const victim = join(scratch, 'victim.txt');
    writeFileSync(victim, 'untouched');
    const spool = new QuarantineSpool('unit-planted');
    symlinkSync(victim, spool.path);
    await spool.add({ line: 1, raw: 'row', reasons: [] });
    await expect(spool.close()).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    await spool.remove();
    expect(existsSync(victim)).toBe(true);
  });

  it("sweeps the spools of a worker process that died, and keeps a live one's", async () => {
    // A real process writes a spool and is killed, as a worker killed mid-file would be.
    const tmp = join(scratch, 'tmp');
    mkdirSync(tmp);
    const spoolTs = fileURLToPath(new URL('../../../../indexer/load/spool.ts', import.meta.url));
    const script = `import { BulkSpool } from ${JSON.stringify(spoolTs)}; const s = new BulkSpool('dead'); await s.add('cert_1', { owner: 'X' }); await s.close(); process.stdout.write(s.path, () => process.kill(process.pid, 'SIGKILL'));`;
    const dead = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        env: { ...process.env, TMPDIR: tmp },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
      });
      child.on('error', reject);
      child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(out) : reject(new Error(`child was not killed: ${signal}`))));
    });
    expect(readFileSync(dead, 'utf8')).toContain('"owner":"X"');
    // The old layout's loose file of a dead process, a live process's directory, and a stranger.
    const legacy = join(tmp, 'taxcert-spool-certificates-job_1-999999999-1763900000000');
    writeFileSync(legacy, 'rows');
    const live = join(tmp, `taxcert-spools-${process.ppid}-abcdef`);
    mkdirSync(live);
    const other = join(tmp, 'unrelated-999999999');
    writeFileSync(other, 'keep');

    expect(sweepStaleSpools(tmp)).toBe(2);
    expect(existsSync(dirname(dead))).toBe(false);
    expect(existsSync(legacy)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });
});
