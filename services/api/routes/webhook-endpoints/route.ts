import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps.ts';
import { listEnvelope } from '../../envelope.ts';
import { webhookExamples } from '../../openapi/examples.ts';
import { answers } from '../../openapi/responses.ts';
import { WebhookDeliveriesParams, WebhookEndpointPath, WebhookEndpointsParams } from './params.ts';
import { readWebhookDeliveries, readWebhookEndpoints } from './read.ts';
import { WebhookDeliveryList, WebhookEndpointList } from './row.ts';

/** The client's own webhook endpoints and deliveries; 1 credit each like any read. JSON only. */
export function webhookEndpointsRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/webhook-endpoints',
      {
        schema: {
          operationId: 'listWebhookEndpoints',
          summary: 'Your webhook endpoints',
          description:
            "The calling client's webhook endpoints, oldest first: URL, the event types and counties each receives (null for all), enabled or disabled and why. Signing secrets are never shown here: each is shown once, when the endpoint is created or its secret rotated. Plans without webhooks answer 403 webhooks_disabled.",
          tags: ['webhooks'],
          querystring: WebhookEndpointsParams,
          response: answers({ schema: WebhookEndpointList, description: 'Your endpoints.', example: webhookExamples.endpointList }),
        },
      },
      async (request, reply) => reply.send(listEnvelope(await readWebhookEndpoints(deps, request.principal!, request.query), request.id)),
    );
    app.get(
      '/webhook-endpoints/:id/deliveries',
      {
        schema: {
          operationId: 'listWebhookDeliveries',
          summary: 'Deliveries to one of your webhook endpoints, with every attempt',
          description:
            "Deliveries to the endpoint, newest first, each with its status (pending, delivered, failed) and every attempt: when, how long, the HTTP status or the network error, and the first 1 KB of your answer. A failed delivery can be replayed. Another client's endpoint is a 404.",
          tags: ['webhooks'],
          params: WebhookEndpointPath,
          querystring: WebhookDeliveriesParams,
          response: answers(
            { schema: WebhookDeliveryList, description: 'One page of deliveries.', example: webhookExamples.deliveryList },
            { notFound: 'no webhook endpoint "whe_unknown"; GET /api/v1/webhook-endpoints lists yours' },
          ),
        },
      },
      async (request, reply) =>
        reply.send(listEnvelope(await readWebhookDeliveries(deps, request.principal!, request.params, request.query), request.id)),
    );
  };
}
