import { describe, expect, it } from 'vitest';
import { changedFields } from '../../../../services/domain/changed-fields.ts';

describe('changedFields (the previous of a change event)', () => {
  it('lists each field whose value differs, with the old value', () => {
    expect(changedFields({ a: 1, b: 'x', c: true }, { a: 2, b: 'x', c: false })).toEqual({ a: 1, c: true });
  });

  it('treats a field missing before as null, and null and undefined alike', () => {
    expect(changedFields({ a: null } as { a: string | null; b?: string }, { a: null, b: 'new' })).toEqual({ b: null });
    expect(changedFields({ a: undefined } as { a?: string | null }, { a: null })).toEqual({});
  });

  it('finds nothing in equal rows', () => {
    expect(changedFields({ a: 0, b: '' }, { a: 0, b: '' })).toEqual({});
  });
});
