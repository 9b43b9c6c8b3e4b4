import { describe, expect, it } from 'vitest';
import { positions } from '../../../../../services/engine/local-percolation/bits.ts';
import { compileQuery } from '../../../../../services/engine/local-percolation/compile.ts';
import { DocBatch } from '../../../../../services/engine/local-percolation/evaluate.ts';
import { fieldKinds } from '../../../../../services/engine/local-percolation/field-kinds.ts';
import { loadMapping } from '../../../../../services/engine/mapping-file.ts';

/**
 * Number and scaled-float ranges judged by binary search over a batch's sorted values give, for
 * every document, what a test of that document alone gives: the engine's rules written out here
 * on their own (a scaled float compared as Math.round(value * 100), an exclusive end moved one
 * step in; an integer field's fraction and any non-number the engine's to judge).
 */

const fields = fieldKinds(loadMapping('certificates'));

const faces = [null, undefined, 0, 0.004, 0.005, 299.99, 299.995, 300, 300.004, 300.005, 700.25, 700.254, 1e6, -5, '300', [300]];
const years = [null, 2019, 2020, 2020.5, 2021, 2024, 2025, '2021'];
const rates = [0, 0.25, 0.2500001, 5, 17.99, 18, null, 'x'];
const docs = Array.from({ length: 600 }, (_, i) => ({
  face_amount: faces[(i * 7) % faces.length],
  tax_year: years[(i * 5) % years.length],
  interest_rate: rates[(i * 3) % rates.length],
}));

type Verdict = 'true' | 'false' | 'unknown';

function scaledVerdict(value: unknown, lo: number, hi: number): Verdict {
  if (value === null || value === undefined) return 'false';
  if (typeof value !== 'number') return 'unknown';
  const scaled = Math.round(value * 100);
  return scaled >= lo && scaled <= hi ? 'true' : 'false';
}

function numberVerdict(value: unknown, integer: boolean, inRange: (v: number) => boolean): Verdict {
  if (value === null || value === undefined) return 'false';
  if (typeof value !== 'number' || (integer && !Number.isInteger(value))) return 'unknown';
  return inRange(value) ? 'true' : 'false';
}

function verdicts(query: Record<string, unknown>): Verdict[] {
  const v = new DocBatch(docs).evaluate(compileQuery(fields, query));
  const t = new Set(positions(v.t));
  const u = new Set(positions(v.u));
  return docs.map((_, i) => (t.has(i) ? 'true' : u.has(i) ? 'unknown' : 'false'));
}

describe('number ranges judged from sorted values', () => {
  it('scaled floats: inclusive and exclusive ends between two cents, one end or both', () => {
    const cases: [Record<string, number>, number, number][] = [
      [{ gte: 300, lte: 700.25 }, 30000, 70025],
      [{ gt: 299.995, lt: 700.254 }, 30001, 70024],
      [{ gte: 0.005 }, 1, Number.POSITIVE_INFINITY],
      [{ lt: 300.005 }, Number.NEGATIVE_INFINITY, 30000],
      [{ lte: 299.999 }, Number.NEGATIVE_INFINITY, 30000],
      [{ gt: 1e6 }, 100000001, Number.POSITIVE_INFINITY],
    ];
    for (const [range, lo, hi] of cases)
      expect(verdicts({ range: { face_amount: range } }), JSON.stringify(range)).toEqual(
        docs.map((d) => scaledVerdict(d.face_amount, lo, hi)),
      );
  });

  it('integer and decimal numbers: ends on and between values, fractions and text left to the engine', () => {
    const cases: [string, Record<string, number>, (v: number) => boolean][] = [
      ['tax_year', { gte: 2020, lte: 2024 }, (v) => v >= 2020 && v <= 2024],
      ['tax_year', { gt: 2020, lt: 2025 }, (v) => v > 2020 && v < 2025],
      ['tax_year', { lt: 2019 }, (v) => v < 2019],
      ['interest_rate', { gt: 0.25 }, (v) => v > 0.25],
      ['interest_rate', { gte: 0.25, lt: 18 }, (v) => v >= 0.25 && v < 18],
      ['interest_rate', { lte: 17.99 }, (v) => v <= 17.99],
    ];
    for (const [field, range, inRange] of cases) {
      const integer = field === 'tax_year';
      expect(verdicts({ range: { [field]: range } }), `${field} ${JSON.stringify(range)}`).toEqual(
        docs.map((d) => numberVerdict(d[field as 'tax_year' | 'interest_rate'], integer, inRange)),
      );
    }
  });
});
