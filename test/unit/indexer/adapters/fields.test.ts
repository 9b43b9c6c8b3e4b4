import { describe, expect, it } from 'vitest';
import { FieldReader, parseYear, problemRow, unreadable } from '../../../../indexer/adapters/fields.ts';
import { describeProblem, ROW } from '../../../../indexer/adapters/types.ts';

describe('typed row problems', () => {
  it('a value the reader cannot parse is null plus a problem naming the canonical field', () => {
    const f = new FieldReader({ Year: '24', Face: '' });
    expect(f.parse('tax_year', 'Year', parseYear)).toBeNull();
    expect(f.parse('face_amount', 'Face', parseYear)).toBeNull();
    expect(f.reasons).toEqual([{ field: 'tax_year', problem: '"24" is not a four-digit year' }]);
    expect(f.reasons.map(describeProblem)).toEqual(['tax_year: "24" is not a four-digit year']);
  });

  it('a row that could not be split carries its problem in its own slot, not among the fields', () => {
    const row = problemRow(7, 'a,b', { A: 'a', B: 'b' }, 'has 2 columns, expected 3');
    expect(row).toEqual({ line: 7, raw: 'a,b', fields: { A: 'a', B: 'b' }, problem: 'has 2 columns, expected 3' });
    const adapted = unreadable(row.problem!);
    expect(adapted.reasons).toEqual([{ field: ROW, problem: 'has 2 columns, expected 3' }]);
    expect(Object.values(adapted.input).every((v) => v === null)).toBe(true);
  });
});
