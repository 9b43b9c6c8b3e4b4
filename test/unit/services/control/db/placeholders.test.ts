// @module-tag postgres
import { describe, expect, it } from 'vitest';
import { compilePlaceholders, orderValues, PlaceholderError } from '../../../../../services/control/db/placeholders.ts';

describe('SQLite placeholders rewritten for PostgreSQL', () => {
  it('numbers positional ? in order and keeps the values as given', () => {
    const c = compilePlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?)');
    expect(c).toEqual({ text: 'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)', names: null });
    expect(orderValues(c, [1, 'x', null])).toEqual([1, 'x', null]);
  });

  it('gives a repeated @name one $n and orders the values by first appearance', () => {
    const c = compilePlaceholders('UPDATE t SET a = @a, b = @b_2 WHERE a IS DISTINCT FROM @a AND c = @C');
    expect(c.text).toBe('UPDATE t SET a = $1, b = $2 WHERE a IS DISTINCT FROM $1 AND c = $3');
    expect(c.names).toEqual(['a', 'b_2', 'C']);
    expect(orderValues(c, { C: 3, b_2: 'two', a: 1, unused: 'ignored' })).toEqual([1, 'two', 3]);
  });

  it('takes an undefined named value as NULL, as better-sqlite3 does', () => {
    expect(orderValues(compilePlaceholders('SELECT @a'), { a: undefined })).toEqual([null]);
  });

  it('copies quoted strings, quoted names and comments untouched', () => {
    const sql = [
      'SELECT \'?\', \'it\'\'s @a ?\', "col?", "we""ird@x" FROM t -- what? @nothing',
      '/* a ? and an @b in a block comment */ WHERE x = ?',
    ].join('\n');
    const c = compilePlaceholders(sql);
    expect(c.text).toBe(
      [
        'SELECT \'?\', \'it\'\'s @a ?\', "col?", "we""ird@x" FROM t -- what? @nothing',
        '/* a ? and an @b in a block comment */ WHERE x = $1',
      ].join('\n'),
    );
    expect(c.names).toBeNull();
  });

  it('never reads a :: cast as a parameter, after a name or after a ?', () => {
    expect(compilePlaceholders('SELECT @v::text, @w::bigint')).toEqual({ text: 'SELECT $1::text, $2::bigint', names: ['v', 'w'] });
    expect(compilePlaceholders("SELECT ?::json, '1'::int, x::text FROM t")).toEqual({
      text: "SELECT $1::json, '1'::int, x::text FROM t",
      names: null,
    });
  });

  it('leaves an @ that starts no name alone', () => {
    expect(compilePlaceholders('SELECT @ 1, @1').text).toBe('SELECT @ 1, @1');
  });

  it('refuses a statement that mixes ? and @name', () => {
    expect(() => compilePlaceholders('SELECT ? , @a')).toThrow(PlaceholderError);
    expect(() => compilePlaceholders('SELECT @a, ?')).toThrow(/mixes \? and @name/);
  });

  it('refuses a named statement missing a value, naming it', () => {
    const c = compilePlaceholders('SELECT @a, @b');
    expect(() => orderValues(c, { a: 1 })).toThrow(PlaceholderError);
    expect(() => orderValues(c, { a: 1 })).toThrow('missing named parameter @b');
  });

  it('refuses values of the other kind', () => {
    expect(() => orderValues(compilePlaceholders('SELECT @a'), [1])).toThrow(/given positional values/);
    expect(() => orderValues(compilePlaceholders('SELECT ?'), { a: 1 })).toThrow(/given named values/);
  });

  it('sends no values for a statement without parameters', () => {
    const c = compilePlaceholders('SELECT 1');
    expect(c).toEqual({ text: 'SELECT 1', names: null });
    expect(orderValues(c, undefined)).toEqual([]);
  });
});
