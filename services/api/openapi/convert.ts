import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publishedOverride } from '../params/published.ts';
import { NAMED_SCHEMAS, openApiRegistry } from './components.ts';

/**
 * zod -> JSON Schema for the document, through fastify-type-provider-zod with our
 * own registry of named schemas (components.ts says why it is not zod's global one).
 */

type JsonNode = Record<string, unknown> & { anyOf?: Record<string, unknown>[] };

/** The annotations .describe() and .meta() keep in zod's global registry; ids are ours alone. */
const ANNOTATIONS = ['title', 'description', 'examples', 'deprecated'] as const;

/** Formats whose values a client parses into a date type of its language. */
const DATE_FORMATS = new Set(['date', 'date-time']);

function override(ctx: { zodSchema: unknown; jsonSchema: JsonNode }): void {
  const published = publishedOverride(ctx);
  const meta = z.globalRegistry.get(ctx.zodSchema as z.ZodType) as Record<string, unknown> | undefined;
  if (meta)
    for (const key of ANNOTATIONS) if (meta[key] !== undefined && ctx.jsonSchema[key] === undefined) ctx.jsonSchema[key] = meta[key];
  // The part of the plugin's default override (which ours replaces) that applies here: a member
  // zod cannot represent comes out as {} and would make the union accept anything. Its other
  // rules (z.date() and z.undefined() in answers) have nothing to act on: no schema uses them.
  if (ctx.jsonSchema.anyOf) ctx.jsonSchema.anyOf = ctx.jsonSchema.anyOf.filter((s) => Object.keys(s).length > 0);
  // A date is described by its format alone. zod adds its calendar regex as a pattern, and
  // generated clients apply a pattern after parsing the value (openapi-generator's Python
  // client matches it against a date object and fails every answer that holds a date);
  // the validator keeps the calendar rule, the document need not repeat it.
  // A published schema (params/published.ts) is plain JSON that no zod node of its own stands
  // for, so the rule walks it.
  if (published) dropDatePatterns(ctx.jsonSchema);
  else if (DATE_FORMATS.has(ctx.jsonSchema.format as string)) delete ctx.jsonSchema.pattern;
  // A boolean that is always one value (a DELETE's deleted: true) is described by its type and
  // description: openapi-generator's Python client turns const true into an enum it compares
  // with the text 'true', and refused every DELETE answer.
  if (ctx.jsonSchema.type === 'boolean') delete ctx.jsonSchema.const;
}

function dropDatePatterns(node: unknown): void {
  if (Array.isArray(node)) for (const item of node) dropDatePatterns(item);
  else if (node !== null && typeof node === 'object') {
    const json = node as JsonNode;
    if (DATE_FORMATS.has(json.format as string)) delete json.pattern;
    for (const value of Object.values(json)) dropDatePatterns(value);
  }
}

const options = { schemaRegistry: openApiRegistry, zodToJsonConfig: { override } } as const;
const zodTransform = createJsonSchemaTransform(options);
const zodTransformObject = createJsonSchemaTransformObject(options);

/** What a route's response entry may carry beside its zod schemas; the plugin keeps only description and content[type].schema. */
export interface ResponseExtras {
  headers?: Record<string, Record<string, unknown>>;
  content?: Record<string, { example?: unknown }>;
}

/**
 * Per route: the plugin's conversion, then the response headers and media examples
 * the route declared (responses.ts builds them) put back where OpenAPI wants them.
 */
export const transform: SwaggerTransform = (input) => {
  const out = zodTransform(input as never) as { schema: Record<string, unknown>; url: string };
  const declared = (input.schema as { response?: Record<string, ResponseExtras> } | undefined)?.response;
  const converted = out.schema.response as Record<string, Record<string, unknown>> | undefined;
  if (!declared || !converted) return out;
  for (const [status, extras] of Object.entries(declared)) {
    const target = converted[status];
    if (!target) continue;
    if (extras.headers) target.headers = extras.headers;
    const content = target.content as Record<string, Record<string, unknown>> | undefined;
    for (const [type, media] of Object.entries(extras.content ?? {}))
      if (media.example !== undefined && content?.[type]) content[type].example = media.example;
  }
  return out;
};

/**
 * The whole document: named schemas into components.schemas. The plugin writes an
 * input twin (<Name>Input) of every named schema; requests never use them (only
 * responses are named), so they are left out rather than published unused.
 */
export const transformObject: SwaggerTransformObject = (input) => {
  const doc = zodTransformObject(input) as { components?: { schemas?: Record<string, unknown> } };
  const schemas = doc.components?.schemas;
  for (const name of NAMED_SCHEMAS) delete schemas?.[`${name}Input`];
  return doc as ReturnType<SwaggerTransformObject>;
};
