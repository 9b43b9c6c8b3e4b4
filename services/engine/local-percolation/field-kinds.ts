import type { MappingFile } from '../mapping-file.ts';

/**
 * What the certificates mapping makes of each field a query may name, as far as the worker can
 * judge a document by it exactly: a keyword (with its normalizer and ignore_above), a number, a
 * scaled float, a strict date or a boolean, read from the document's own source field (a
 * multi-field such as holder_name.contains reads holder_name). Anything else (text, say) is
 * `other`: a clause on it is left to the engine.
 */
export type FieldKind =
  | { type: 'keyword'; source: string; normalizer?: string; ignoreAbove?: number }
  | { type: 'number'; source: string; integer: boolean }
  | { type: 'scaled_float'; source: string; factor: number }
  | { type: 'date'; source: string; strictDate: boolean }
  | { type: 'boolean'; source: string }
  | { type: 'other'; source: string };

interface FieldMapping {
  type?: string;
  normalizer?: string;
  ignore_above?: number;
  scaling_factor?: number;
  format?: string;
  fields?: Record<string, FieldMapping>;
}

function kindOf(source: string, m: FieldMapping): FieldKind {
  switch (m.type) {
    case 'keyword':
      return {
        type: 'keyword',
        source,
        ...(m.normalizer ? { normalizer: m.normalizer } : {}),
        ...(m.ignore_above !== undefined ? { ignoreAbove: m.ignore_above } : {}),
      };
    case 'integer':
    case 'long':
    case 'short':
    case 'byte':
      return { type: 'number', source, integer: true };
    case 'double':
      return { type: 'number', source, integer: false };
    case 'scaled_float':
      return m.scaling_factor ? { type: 'scaled_float', source, factor: m.scaling_factor } : { type: 'other', source };
    case 'date':
      return { type: 'date', source, strictDate: m.format === 'strict_date' };
    case 'boolean':
      return { type: 'boolean', source };
    default:
      return { type: 'other', source };
  }
}

/** Field path (a multi-field's too) -> its kind, for the top-level fields of a flat mapping. */
export function fieldKinds(mapping: MappingFile): ReadonlyMap<string, FieldKind> {
  const out = new Map<string, FieldKind>();
  const properties = (mapping.mappings as { properties: Record<string, FieldMapping> }).properties;
  for (const [name, m] of Object.entries(properties)) {
    out.set(name, kindOf(name, m));
    for (const [sub, sm] of Object.entries(m.fields ?? {})) out.set(`${name}.${sub}`, kindOf(name, sm));
  }
  return out;
}
