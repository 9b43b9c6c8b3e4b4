import type { z } from 'zod';
import { NUMBER_TEXT } from './coerce.ts';
import { type Kind, kindOf } from './kinds.ts';

/**
 * The JSON Schema of what coerce.ts accepts, from the JSON Schema of the
 * native parameters (z.toJSONSchema of the params.ts object): each property
 * becomes the alternatives a caller may send, so an MCP client reading a tool's
 * inputSchema knows that county takes "miami-dade", "miami-dade,broward" or an
 * array, and limit takes 25 or "25" (what coerce.ts accepts). Description and default
 * stay on the property; the alternatives carry the constraints.
 */
type Json = Record<string, unknown>;

export function acceptedJsonSchema(shape: Record<string, z.ZodType>, native: Json): Json {
  const properties = native.properties as Record<string, Json> | undefined;
  if (!properties) return native;
  const widened: Record<string, Json> = {};
  for (const [name, property] of Object.entries(properties)) {
    const schema = shape[name];
    widened[name] = schema ? accepted(kindOf(schema), property) : property;
  }
  return { ...native, properties: widened };
}

const COMMA_LIST: Json = { type: 'string', description: 'Several values separated by commas, e.g. "a,b".' };

function accepted(kind: Kind, property: Json): Json {
  const { description, default: fallback, ...core } = property;
  let alternatives: Json[];
  if (kind.list) {
    const { items, ...array } = core;
    const item = asText(kind, items as Json);
    alternatives = [{ ...array, items: anyOf(item) }, ...item, COMMA_LIST];
  } else {
    const one = asText(kind, core);
    // A single-valued parameter also takes an array of exactly one: a county is one slug in every tool.
    alternatives = [...one, { type: 'array', items: anyOf(one), minItems: 1, maxItems: 1 }];
  }
  return {
    ...(description !== undefined ? { description } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
    anyOf: alternatives,
  };
}

/** A value's own schema, and for numbers and booleans also their text. */
function asText(kind: Kind, value: Json): Json[] {
  if (kind.scalar === 'number')
    return [value, { type: 'string', pattern: NUMBER_TEXT.source, description: 'The number as text, e.g. "25".' }];
  if (kind.scalar === 'boolean') return [value, { type: 'string', enum: ['true', 'false'] }];
  return [value];
}

function anyOf(alternatives: Json[]): Json {
  return alternatives.length === 1 ? alternatives[0]! : { anyOf: alternatives };
}
