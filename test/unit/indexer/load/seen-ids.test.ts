import { describe, expect, it } from 'vitest';
import { certificateId } from '../../../../services/domain/ids.ts';
import { SeenIds } from '../../../../indexer/load/seen-ids.ts';

describe('SeenIds', () => {
  it('reports the first line of a repeated id and nothing for new ones', () => {
    const seen = new SeenIds(4);
    expect(seen.add(certificateId('miami-dade', 2023, '2023-000001'), 2)).toBeUndefined();
    expect(seen.add(certificateId('miami-dade', 2023, '2023-000002'), 3)).toBeUndefined();
    expect(seen.add(certificateId('miami-dade', 2023, '2023000001'), 9)).toBe(2);
    expect(seen.count).toBe(2);
  });

  it('keeps every id across growth', () => {
    const seen = new SeenIds(2);
    const ids = Array.from({ length: 50_000 }, (_, i) => certificateId('broward', 2024, String(i)));
    const repeats = ids.filter((id, i) => seen.add(id, i + 1) !== undefined);
    expect(repeats).toEqual([]);
    expect(seen.count).toBe(50_000);
    expect(seen.add(ids[31_337]!, 1)).toBe(31_338);
  });
});

describe('SeenIds.lineOf', () => {
  it('names the first line of an id it holds and nothing for one it does not', () => {
    const seen = new SeenIds(2);
    const ids = Array.from({ length: 1000 }, (_, i) => certificateId('orange', 2022, `22-${i}`));
    for (const [i, id] of ids.entries()) seen.add(id, 10 + i);
    expect(ids.map((id) => seen.lineOf(id))).toEqual(ids.map((_, i) => 10 + i));
    expect(seen.lineOf(certificateId('orange', 2022, 'never-listed'))).toBeUndefined();
    expect(seen.count).toBe(1000);
  });
});

describe('SeenIds with ids that are not digests', () => {
  it('tells parcel ids of one county apart (county:parcel, digested before the fingerprint)', () => {
    const seen = new SeenIds();
    const ids = Array.from({ length: 500 }, (_, i) => `miami-dade:0131250${String(i).padStart(3, '0')}`);
    expect(ids.map((id, i) => seen.add(id, i + 2)).filter((line) => line !== undefined)).toEqual([]);
    expect(seen.add('miami-dade:0131250007', 900)).toBe(9);
    expect(seen.count).toBe(500);
  });
});
