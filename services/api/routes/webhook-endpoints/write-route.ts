import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addressPolicy } from '../../../domain/webhook-address.ts';
import type { ApiDeps } from '../../deps.ts';
import { objectEnvelope } from '../../envelope.ts';
import { webhookWriteExamples } from '../../openapi/examples.ts';
import { answers, writeAnswers } from '../../openapi/responses.ts';
import { WRITE_BODY_LIMIT } from '../../writes/body.ts';
import { sendWrite, withSecretBox } from '../../writes/respond.ts';
import { DeletedResponse, IDEMPOTENT, IdempotencyHeaders } from '../../writes/schemas.ts';
import { CreateWebhookEndpointBody, NoQuery, UpdateWebhookEndpointBody, WebhookEndpointPath } from './params.ts';
import { readWebhookEndpoint } from './read.ts';
import { WebhookEndpointResponse, WebhookEndpointSecretResponse } from './row.ts';
import { createWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookSecret, updateWebhookEndpoint } from './write.ts';

const NOT_FOUND = 'no webhook endpoint "whe_unknown"; GET /api/v1/webhook-endpoints lists yours';

/**
 * The client's webhook endpoints as writable resources (docs/writes.md): create, read, change,
 * delete, rotate the signing secret. Everything the account page does, through the API.
 */
export function webhookEndpointWriteRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  const writeDeps = { ...withSecretBox(deps), policy: addressPolicy(deps.config.NODE_ENV) };
  return async (app) => {
    app.post(
      '/webhook-endpoints',
      {
        bodyLimit: WRITE_BODY_LIMIT,
        schema: {
          operationId: 'createWebhookEndpoint',
          summary: 'Create a webhook endpoint',
          description: `Creates an enabled endpoint that receives the events recorded from now on. The answer carries its signing secret, shown this once: store it. The address must be an http(s) URL of a public host; at most 16 endpoints per client. Your saved searches' events (saved_search.*) go only to your own endpoints, of the searches saved_searches names (all of them when left out). Plans without webhooks answer 403 webhooks_disabled.${IDEMPOTENT}`,
          tags: ['webhooks'],
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          body: CreateWebhookEndpointBody.meta({ examples: [webhookWriteExamples.createBody] }),
          response: writeAnswers({
            status: 201,
            schema: WebhookEndpointSecretResponse,
            description: 'The new endpoint, with its signing secret (shown once).',
            example: webhookWriteExamples.created,
          }),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => createWebhookEndpoint(writeDeps, request.principal!, request.body)),
    );
    app.get(
      '/webhook-endpoints/:id',
      {
        schema: {
          operationId: 'getWebhookEndpoint',
          summary: 'One of your webhook endpoints',
          description: "One endpoint, never its signing secret. Another client's endpoint is a 404.",
          tags: ['webhooks'],
          params: WebhookEndpointPath,
          querystring: NoQuery,
          response: answers(
            { schema: WebhookEndpointResponse, description: 'The endpoint.', example: webhookWriteExamples.endpoint },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) => reply.send(objectEnvelope(await readWebhookEndpoint(deps, request.principal!, request.params), request.id)),
    );
    app.patch(
      '/webhook-endpoints/:id',
      {
        bodyLimit: WRITE_BODY_LIMIT,
        schema: {
          operationId: 'updateWebhookEndpoint',
          summary: 'Change a webhook endpoint',
          description: `Changes the address, the event types, counties or saved searches (null: every one), or disables and enables the endpoint, as the account page does. Fields left out stay as they are. Another client's endpoint is a 404.${IDEMPOTENT}`,
          tags: ['webhooks'],
          params: WebhookEndpointPath,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          body: UpdateWebhookEndpointBody.meta({ examples: [webhookWriteExamples.updateBody] }),
          response: writeAnswers(
            {
              status: 200,
              schema: WebhookEndpointResponse,
              description: 'The endpoint as it now is.',
              example: webhookWriteExamples.updated,
            },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => updateWebhookEndpoint(writeDeps, request.principal!, request.params.id, request.body)),
    );
    app.delete(
      '/webhook-endpoints/:id',
      {
        // A body is never read here, but the limit of every write holds (docs/writes.md).
        bodyLimit: WRITE_BODY_LIMIT,
        schema: {
          operationId: 'deleteWebhookEndpoint',
          summary: 'Delete a webhook endpoint',
          description: `Deletes the endpoint with its deliveries; nothing more is sent to it. Deleting it again is a 404.${IDEMPOTENT}`,
          tags: ['webhooks'],
          params: WebhookEndpointPath,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          response: writeAnswers(
            { status: 200, schema: DeletedResponse, description: 'The endpoint is gone.', example: webhookWriteExamples.deleted },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => deleteWebhookEndpoint(writeDeps, request.principal!, request.params.id)),
    );
    app.post(
      '/webhook-endpoints/:id/rotate-secret',
      {
        // A body is never read here, but the limit of every write holds (docs/writes.md).
        bodyLimit: WRITE_BODY_LIMIT,
        schema: {
          operationId: 'rotateWebhookEndpointSecret',
          summary: "Rotate a webhook endpoint's signing secret",
          description: `A new signing secret, shown in this answer only. For 24 hours deliveries are signed with both the new and the old secret, so a receiver can switch without a failed delivery.${IDEMPOTENT}`,
          tags: ['webhooks'],
          params: WebhookEndpointPath,
          querystring: NoQuery,
          headers: IdempotencyHeaders,
          response: writeAnswers(
            {
              status: 200,
              schema: WebhookEndpointSecretResponse,
              description: 'The endpoint with its new secret (shown once).',
              example: webhookWriteExamples.rotated,
            },
            { notFound: NOT_FOUND },
          ),
        },
      },
      async (request, reply) =>
        sendWrite(writeDeps, request, reply, () => rotateWebhookSecret(writeDeps, request.principal!, request.params.id)),
    );
  };
}
