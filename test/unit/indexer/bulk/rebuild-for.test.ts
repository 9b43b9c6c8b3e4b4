import { describe, expect, it } from 'vitest';
import { REBUILD_MAX_WAIT_WINDOWS, rebuildFor, rebuildRunsNow } from '../../../../indexer/bulk/rebuild-worker.ts';
import type { IngestJobData, IngestResult } from '../../../../indexer/queue.ts';

const job = (dataset: IngestJobData['dataset']): IngestJobData => ({
  dataset,
  file: '/x.csv',
  vendor: 'manual',
  county: 'alachua',
  taxYear: 2024,
});
const result = (counts: Partial<Pick<IngestResult, 'indexed' | 'updated' | 'changed'>>): IngestResult =>
  ({ indexed: 0, updated: 0, ...counts }) as IngestResult;

describe('the bulk rebuild a finished ingest asks for', () => {
  it('certificates: the county and tax year; lands available: the county alone; holders: the one file', () => {
    expect(rebuildFor(job('certificates'), result({ indexed: 3 }))).toEqual({ dataset: 'certificates', county: 'alachua', taxYear: 2024 });
    expect(rebuildFor(job('lands-available'), result({ updated: 2 }))).toEqual({ dataset: 'lands-available', county: 'alachua' });
    expect(rebuildFor(job('holders'), result({ indexed: 1 }))).toEqual({ dataset: 'holders' });
  });

  it('none when nothing changed, for parcels, or without a result', () => {
    // Replaced certificates that came back as they were change no file.
    expect(rebuildFor(job('certificates'), result({ updated: 5, changed: 0 }))).toBeNull();
    expect(rebuildFor(job('lands-available'), result({}))).toBeNull();
    expect(rebuildFor(job('parcels'), result({ indexed: 9 }))).toBeNull();
    expect(rebuildFor(job('holders'), undefined)).toBeNull();
  });
});

describe('when a rebuild runs', () => {
  it('at once when nothing is loading; while files load, only after waiting its most', () => {
    expect(rebuildRunsNow(0, 1_000, 1_000, 500)).toBe(true);
    expect(rebuildRunsNow(3, 1_000, 1_000 + REBUILD_MAX_WAIT_WINDOWS * 500 - 1, 500)).toBe(false);
    expect(rebuildRunsNow(3, 1_000, 1_000 + REBUILD_MAX_WAIT_WINDOWS * 500, 500)).toBe(true);
  });
});
