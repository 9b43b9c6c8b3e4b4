import { z } from 'zod';

/**
 * A field whose JSON Schema is given rather than derived from its zod schema: one that zod
 * validates loosely on purpose because a function reads it further (a saved search's params,
 * read by the certificate search's own schema and coercion). Its published schema says what
 * that function accepts, so the OpenAPI document (openapi/convert.ts) and a tool's inputSchema
 * (mcp/tool.ts) type the field while validation stays the function's. Both converters apply it
 * through `publishedOverride`, zod's own override hook.
 */
type Json = Record<string, unknown>;

const published = z.registry<{ jsonSchema: () => Json }>();

/** Registers `schema` (this very instance) to be published as `jsonSchema()`; its description stays its own. */
export function publishAs<T extends z.ZodType>(schema: T, jsonSchema: () => Json): T {
  published.add(schema, { jsonSchema: once(jsonSchema) });
  return schema;
}

/**
 * For z.toJSONSchema's `override`: replaces a registered schema's derived JSON with the published
 * one (keeping its description), and says whether it did.
 */
export function publishedOverride(ctx: { zodSchema: unknown; jsonSchema: Json }): boolean {
  const entry = published.get(ctx.zodSchema as z.ZodType);
  if (!entry) return false;
  const { description } = ctx.jsonSchema;
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, structuredClone(entry.jsonSchema()), description === undefined ? {} : { description });
  return true;
}

/** A JSON Schema of a zod object for embedding in another: no $schema of its own. */
export function embeddedJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return json;
}

function once(make: () => Json): () => Json {
  let made: Json | undefined;
  return () => {
    made ??= make();
    return made;
  };
}
