import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { docsBranding } from './openapi/branding.ts';
import { OpenApiDocument } from './openapi/components.ts';
import { transform, transformObject } from './openapi/convert.ts';
import { DESCRIPTION, PRODUCT_NAME, TAGS } from './openapi/description.ts';
import { publicAnswer } from './openapi/responses.ts';

/**
 * The OpenAPI 3.1 document is generated from the routes' zod schemas (the same
 * ones that validate requests), never written by hand: routes/named-schemas.ts names
 * the shapes, openapi/responses.ts writes each operation's answers. It is
 * served free of charge outside the /api/v1 scope, and /docs renders it from
 * assets shipped in the package (works offline, no CDN).
 */
export const OPENAPI_PATH = '/api/v1/openapi.json';

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: PRODUCT_NAME,
        version: '1.0.0',
        description: DESCRIPTION,
        contact: { name: `${PRODUCT_NAME} support` },
      },
      servers: [{ url: '/' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key> (preferred).' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'X-API-Key: <API key>.' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
    transform,
    transformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    ...docsBranding,
    // The page shows and loads the document at the address the README and clients use; the
    // plugin's own copy at /docs/json is the same document (app.swagger()).
    uiConfig: { ...docsBranding.uiConfig, urls: [{ url: OPENAPI_PATH, name: OPENAPI_PATH }] },
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    OPENAPI_PATH,
    {
      schema: {
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI document',
        description:
          'The OpenAPI 3.1 document of the REST API, generated from the schemas that validate requests. Free, no API key needed.',
        tags: ['service'],
        security: [],
        response: { 200: publicAnswer(OpenApiDocument, 'The OpenAPI 3.1 document.') },
      },
    },
    async () => app.swagger() as never,
  );
}
