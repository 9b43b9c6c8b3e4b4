/**
 * The control plane's SQL is written once with SQLite's placeholders (`?` and `@name`);
 * PostgreSQL numbers its own ($1, $2, ...). This rewrites a statement once and says how to
 * order its values. Quoted strings, quoted names and comments (line and block) are copied untouched, and
 * PostgreSQL's `::` casts are never read as a name.
 */

export interface Compiled {
  text: string;
  /** For `@name` statements: the parameter names in $n order. Null: positional (`?`). */
  names: string[] | null;
}

export class PlaceholderError extends Error {
  override name = 'PlaceholderError';
}

export function compilePlaceholders(sql: string): Compiled {
  let out = '';
  let positional = 0;
  const names: string[] = [];
  const slots = new Map<string, number>();
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '/' && sql[i + 1] === '*') {
      // Block comments: a `?` or `@x` in one is text to both engines, so it takes no value.
      // (Not nested: SQLite ends a comment at the first */, so portable SQL never nests them.)
      const end = sql.indexOf('*/', i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '?') {
      positional += 1;
      out += `$${positional}`;
      i += 1;
    } else if (c === '@' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_]/.test(sql[j]!)) j += 1;
      const name = sql.slice(i + 1, j);
      let slot = slots.get(name);
      if (slot === undefined) {
        names.push(name);
        slot = names.length;
        slots.set(name, slot);
      }
      out += `$${slot}`;
      i = j;
    } else {
      out += c;
      i += 1;
    }
  }
  if (positional > 0 && names.length > 0) throw new PlaceholderError('a statement mixes ? and @name parameters');
  return { text: out, names: names.length > 0 ? names : null };
}

function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i += 1;
  }
  return sql.length;
}

/** The values in $n order for a compiled statement. A named value left out is refused, as better-sqlite3 refuses it. */
export function orderValues(compiled: Compiled, params: readonly unknown[] | Readonly<Record<string, unknown>> | undefined): unknown[] {
  if (params === undefined) return [];
  if (compiled.names === null) {
    if (!Array.isArray(params)) throw new PlaceholderError('a statement with ? parameters was given named values');
    return params as unknown[];
  }
  if (Array.isArray(params)) throw new PlaceholderError('a statement with @name parameters was given positional values');
  const named = params as Readonly<Record<string, unknown>>;
  return compiled.names.map((n) => {
    if (!(n in named)) throw new PlaceholderError(`missing named parameter @${n}`);
    return named[n] ?? null;
  });
}
