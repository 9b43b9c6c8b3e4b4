import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sql } from '../../control/db/sql.ts';
import { createSecretBox, type SecretBox } from '../../control/feed/webhook-secrets.ts';
import { meta } from '../envelope.ts';
import { requestFingerprint } from './fingerprint.ts';
import { idempotent } from './idempotency.ts';

/**
 * A write route's deps: the API's, with the box that seals what the writes store encrypted (the
 * idempotent answers, webhook secrets), made once per route plugin at start-up.
 */
export function withSecretBox<D extends { config: { WEBHOOK_SECRET_KEY: string } }>(deps: D): D & { box: SecretBox } {
  return { ...deps, box: createSecretBox(deps.config.WEBHOOK_SECRET_KEY) };
}

/** What a write route's function returns: 201 for a creation, 200 otherwise. */
export interface WriteResult<T> {
  status: 200 | 201;
  data: T;
}

/** DELETE's answer, as Stripe has it: the id and that it is gone. */
export function deleted(id: string): WriteResult<{ id: string; deleted: true }> {
  return { status: 200, data: { id, deleted: true } };
}

/**
 * The one way a write answers: run it under the request's Idempotency-Key (idempotency.ts),
 * then send { data, meta } with its status. A replay sends the first answer as it was, with
 * Idempotent-Replayed: true.
 */
export async function sendWrite<T>(
  deps: { sql: Sql; box: SecretBox },
  request: FastifyRequest,
  reply: FastifyReply,
  write: () => Promise<WriteResult<T>>,
): Promise<FastifyReply> {
  const header = request.headers['idempotency-key'];
  const key = typeof header === 'string' ? header : undefined;
  const path = request.url.split('?')[0] ?? request.url;
  const answer = await idempotent(
    deps,
    { clientId: request.principal!.client.id, key, fingerprint: requestFingerprint(request.method, path, request.body) },
    async () => {
      const result = await write();
      return { status: result.status, body: { data: result.data, meta: meta(request.id) } };
    },
  );
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(answer.status).send(answer.body);
}
