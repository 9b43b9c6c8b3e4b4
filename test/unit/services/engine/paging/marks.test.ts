import { describe, expect, it } from 'vitest';
import { MARK_QUERIES, MARKS_MAX, MARKS_PER_QUERY, type Mark, PageMarks } from '../../../../../services/engine/paging/marks.ts';

/** Usable when at most `skip` documents past it (from-mark.ts also reads bounded marks further on). */
const reach = (offset: number, skip: number) => (m: Mark) => offset - m.before <= skip;
const at = (before: number): Mark => ({
  cursor: { fixed: [], cut: { field: 'sale_date', kind: 'date', order: 'desc', value: before } },
  before,
  end: { cursor: { fixed: [], cut: { field: 'sale_date', kind: 'date', order: 'desc', value: before + 100 } }, before: before + 100 },
});

describe('PageMarks (services/engine/paging/marks.ts)', () => {
  it('gives the latest usable mark at or before the offset', () => {
    const marks = new PageMarks();
    for (const before of [1000, 5000, 3000]) marks.remember('q', at(before));
    expect(marks.nearest('q', 5100, reach(5100, 200))?.before).toBe(5000);
    expect(marks.nearest('q', 3150, reach(3150, 200))?.before).toBe(3000);
    expect(marks.nearest('q', 3000, reach(3000, 200))?.before).toBe(3000);
    expect(marks.nearest('q', 3201, reach(3201, 200))).toBeUndefined();
    expect(marks.nearest('q', 999, reach(999, 200))).toBeUndefined();
    expect(marks.nearest('other', 5000, reach(5000, 200))).toBeUndefined();
  });

  it('keys a query by index, query and order, not by the fields fetched', () => {
    const sort = [{ field: 'sale_date', order: 'desc' as const }];
    expect(PageMarks.keyOf('a', { match_all: {} }, sort)).toBe(PageMarks.keyOf('a', { match_all: {} }, sort));
    expect(PageMarks.keyOf('a', { match_all: {} }, sort)).not.toBe(PageMarks.keyOf('b', { match_all: {} }, sort));
    expect(PageMarks.keyOf('a', { match_all: {} }, sort)).not.toBe(PageMarks.keyOf('a', { match_none: {} }, sort));
    expect(PageMarks.keyOf('a', { match_all: {} }, sort)).not.toBe(
      PageMarks.keyOf('a', { match_all: {} }, [{ field: 'sale_date', order: 'asc' }]),
    );
  });

  it('forgets every mark of a query whose count no longer held', () => {
    const marks = new PageMarks();
    marks.remember('q', at(1000));
    marks.remember('q', at(2000));
    marks.forget('q');
    expect(marks.nearest('q', 2000, reach(2000, 200))).toBeUndefined();
    expect(marks.queries).toBe(0);
  });

  it('is bounded: the oldest mark of a query and the least recently used query go first', () => {
    const marks = new PageMarks();
    for (let i = 1; i <= MARKS_PER_QUERY + 1; i++) marks.remember('q', at(i * 10_000));
    expect(marks.nearest('q', 10_000, reach(10_000, 0))).toBeUndefined();
    expect(marks.nearest('q', 20_000, reach(20_000, 0))?.before).toBe(20_000);
    // MARK_QUERIES newer queries: the least recently used one, q, goes.
    for (let i = 0; i < MARK_QUERIES; i++) marks.remember(`other-${i}`, at(1));
    expect(marks.queries).toBe(MARK_QUERIES);
    expect(marks.nearest('other-0', 1, reach(1, 0))).toBeDefined();
    expect(marks.nearest('q', 20_000, reach(20_000, 0))).toBeUndefined();
  });

  it('holds at most MARKS_MAX marks in all, dropping the least recently used queries whole', () => {
    const marks = new PageMarks();
    const queries = Math.ceil(MARKS_MAX / MARKS_PER_QUERY) + 2;
    for (let q = 0; q < queries; q++) for (let i = 1; i <= MARKS_PER_QUERY; i++) marks.remember(`q${q}`, at(i));
    expect(marks.size).toBeLessThanOrEqual(MARKS_MAX);
    expect(marks.nearest('q0', 1, reach(1, 0))).toBeUndefined();
    expect(marks.nearest(`q${queries - 1}`, MARKS_PER_QUERY, reach(MARKS_PER_QUERY, 0))?.before).toBe(MARKS_PER_QUERY);
    marks.forget(`q${queries - 1}`);
    expect(marks.size).toBeLessThanOrEqual(MARKS_MAX - MARKS_PER_QUERY);
  });

  it('keeps one mark per position', () => {
    const marks = new PageMarks();
    marks.remember('q', at(1000));
    marks.remember('q', at(1000));
    for (let i = 0; i < MARKS_PER_QUERY - 1; i++) marks.remember('q', at(2000 + i));
    expect(marks.nearest('q', 1000, reach(1000, 0))?.before).toBe(1000);
  });
});
