import { z } from 'zod';
import type { Registry } from '../../../domain/registry.ts';
import { CertificateRow } from './row.ts';
import { objectResponse } from '../../envelope.ts';

/**
 * The field dictionary of spec 2.9 / 4.5, derived from the row schema itself so it
 * can never disagree with what search returns: names and order from the row,
 * types from its JSON Schema, descriptions from its .describe() texts.
 */

export const FIELD_TYPES = ['string', 'integer', 'number', 'date', 'boolean', 'enum'] as const;

export const FieldDescriptor = z.object({
  name: z.string(),
  type: z.enum(FIELD_TYPES),
  description: z.string(),
  values: z.array(z.string()).optional().describe('Only for fields with a published value list.'),
});
export type FieldDescriptor = z.infer<typeof FieldDescriptor>;

export const FieldDictionary = z.object({ fields: z.array(FieldDescriptor) });
export type FieldDictionary = z.infer<typeof FieldDictionary>;

interface JsonSchemaNode {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  anyOf?: JsonSchemaNode[];
  description?: string;
}

function fieldType(node: JsonSchemaNode): FieldDescriptor['type'] {
  const inner = node.anyOf?.find((n) => n.type !== 'null') ?? node;
  // A nullable scalar is written type: [t, 'null']; the descriptor names t.
  const type = Array.isArray(inner.type) ? inner.type.find((t) => t !== 'null') : inner.type;
  if (inner.enum) return 'enum';
  if (type === 'string' && inner.format === 'date') return 'date';
  if (type === 'integer' || type === 'number' || type === 'boolean') return type;
  return 'string';
}

/**
 * The two vendor lists of spec 2.2.2 in our codes: the spec names platforms
 * portal_a..portal_f, the registry maps each to its code.
 */
export function vendorLists(registry: Pick<Registry, 'platforms'>): { current: string[]; earlier: string[] } {
  const code = (spec: string) => {
    const platform = registry.platforms.find((p) => p.spec === spec);
    if (!platform) throw new Error(`the registry has no platform for ${spec}`);
    return platform.code;
  };
  return {
    current: ['tax_collector', code('portal_b'), code('portal_c'), code('portal_a')],
    earlier: [code('portal_a'), code('portal_f'), code('portal_b'), code('portal_d'), 'county-local'],
  };
}

export function certificateFields(registry: Pick<Registry, 'platforms'>): FieldDictionary {
  const schema = z.toJSONSchema(CertificateRow) as { properties: Record<string, JsonSchemaNode> };
  const vendors = vendorLists(registry);
  const fields = Object.entries(schema.properties).map(([name, node]): FieldDescriptor => {
    const inner = node.anyOf?.find((n) => n.type !== 'null') ?? node;
    const description = node.description ?? inner.description ?? '';
    const type = fieldType(node);
    if (type === 'enum') return { name, type, description, values: (inner.enum ?? []).map(String) };
    if (name === 'vendor')
      return {
        name,
        type,
        description: `${description} Values present in data today are listed; an earlier published list: ${vendors.earlier.join(', ')}.`,
        values: vendors.current,
      };
    return { name, type, description };
  });
  return { fields };
}

/** The answer of GET /certificates/fields, named by the document (routes/named-schemas.ts). */
export const CertificateFieldsResponse = objectResponse(FieldDictionary);
