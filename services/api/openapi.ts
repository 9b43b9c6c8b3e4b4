import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The OpenAPI 3.1 document is generated from the routes' zod schemas (the same
 * ones that validate requests), never written by hand. It is served free of
 * charge outside the /api/v1 scope, and /docs renders it from assets shipped in
 * the package (works offline, no CDN).
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tax Certificate Data Service',
        version: '1.0.0',
        description:
          'Read-only data on Florida tax certificates (tax liens), annual county certificate sales, holders, ' +
          'lands-available records and the 67-county directory. Independent of any government agency. ' +
          'Every /api/v1 request needs an API key (Authorization: Bearer <key> or X-API-Key) and costs 1 credit.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, uiConfig: { url: '/api/v1/openapi.json' } as never });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
