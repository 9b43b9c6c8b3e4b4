import type { z } from 'zod';
import { oneWord } from './common.ts';

/**
 * What a parameter's schema takes, read from the schema itself, so the one
 * coercion (coerce.ts) and the tools' published input (json-schema.ts) follow
 * the params.ts files without a second list of parameters.
 */
export interface Kind {
  scalar: 'string' | 'number' | 'boolean';
  /** A multi-value filter: one value, a comma-separated string or an array. */
  list: boolean;
  /** A value never holds a comma (numbers, booleans, enums, slugs, dates), so a comma means several values. */
  word: boolean;
  /** What one value is called in "takes one <noun>". */
  noun: string;
}

type Def = { type: string; [k: string]: unknown };

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

export function kindOf(schema: z.ZodType): Kind {
  let s = schema;
  let noun = oneWord.get(s)?.noun;
  for (;;) {
    const def = defOf(s);
    if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault')
      s = def.innerType as z.ZodType;
    else if (def.type === 'pipe') {
      // required(): a string piped into the real schema, whose noun is on its output side.
      noun ??= oneWord.get(def.out as z.ZodType)?.noun;
      s = def.in as z.ZodType;
    } else if (def.type === 'array') {
      const item = kindOf(def.element as z.ZodType);
      if (item.list) throw new Error('arrays of arrays are not parameters');
      return { ...item, list: true };
    } else {
      const scalar = def.type === 'number' || def.type === 'int' ? 'number' : def.type === 'boolean' ? 'boolean' : 'string';
      const word = scalar !== 'string' || def.type === 'enum' || noun !== undefined;
      return { scalar, list: false, word, noun: noun ?? 'value' };
    }
    noun ??= oneWord.get(s)?.noun;
  }
}
