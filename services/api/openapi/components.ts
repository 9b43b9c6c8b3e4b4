import { z } from 'zod';

/**
 * The registry of the OpenAPI document's named schemas (components.schemas), so a
 * generated client can import Certificate, CertificateList, Error, ... by name. The
 * names are given in routes/named-schemas.ts, in the document's order, to shapes that
 * live beside their routes (routes/<resource>/row.ts), so nothing here imports a route.
 *
 * They live in a registry of their own rather than zod's global one: the MCP
 * tools and the field dictionary convert the same row schemas with
 * z.toJSONSchema, which would turn every globally named schema into a $ref and
 * change what they publish. Descriptions stay in the global registry (.describe())
 * and are merged back by the document's converter (openapi/convert.ts).
 */
export const openApiRegistry = z.registry<{ id: string }>();
/** Every id given out, in order. */
export const NAMED_SCHEMAS = new Set<string>();

export function named<T extends z.ZodType>(id: string, schema: T): T {
  openApiRegistry.add(schema, { id });
  NAMED_SCHEMAS.add(id);
  return schema;
}

/** The served document itself: any JSON object (its own schema is OpenAPI 3.1's). */
export const OpenApiDocument = z.looseObject({ openapi: z.string() }).describe('An OpenAPI 3.1 document.');
