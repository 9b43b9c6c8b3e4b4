import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RowsProgress, rowsInFlight } from '../../../../services/process/ingest-progress.ts';
import { createProgress, progressLine } from '../../../../services/process/progress.ts';

// Every bar has a true total and ends at 100% when the work ends: reindex once showed
// "14000/0 docs"; a one-file ingest printed "1/1 files, 10 files/s, 1/1 files"; rows reached 100%
// while files stood at 58/66.

function capture(): { stream: NodeJS.WriteStream; text: () => string } {
  const pass = new PassThrough();
  let out = '';
  pass.on('data', (c: Buffer) => {
    out += c.toString();
  });
  return { stream: pass as unknown as NodeJS.WriteStream, text: () => out };
}

describe('rows of a load in flight', () => {
  it('count validation as the first half of a file and sending as the second', () => {
    expect(rowsInFlight({ phase: 'validating', rows: 100 })).toBe(50);
    expect(rowsInFlight({ phase: 'indexing', rows: 50, of: 100 })).toBe(75);
  });
  it('stay one row short of the file until its job has finished', () => {
    expect(rowsInFlight({ phase: 'indexing', rows: 100, of: 100 })).toBe(99);
  });
  it('reach the total only when every file has finished', () => {
    const p = new RowsProgress(2);
    p.onEvent('a', { phase: 'indexing', rows: 10, of: 10 });
    p.onEvent('b', { phase: 'indexing', rows: 30, of: 30 });
    expect(p.rows).toBe(38);
    p.onFinished('a', 10);
    expect([p.rows, p.detail]).toEqual([39, '1/2 files']);
    p.onFinished('b', 30);
    expect([p.rows, p.detail]).toEqual([40, '2/2 files']);
  });
});

describe('progress without a terminal', () => {
  it('prints one unit per line, no repeated count', () => {
    expect(progressLine('ingest', 1, 1, 'files', 10)).toBe('ingest: 1/1 files, 10 files/s');
  });
  it('learns a late total and ends at 100%', () => {
    const out = capture();
    const p = createProgress('reindex certificates', 0, 'docs', out.stream);
    p.setTotal(14_000);
    p.update(2_000);
    p.finish();
    const lines = out.text().trim().split('\n');
    expect(lines[0]).toMatch(/^reindex certificates: 2000\/14000 docs, \d+ docs\/s$/);
    expect(lines.at(-1)).toMatch(/^reindex certificates: 14000\/14000 docs, /);
  });
});
