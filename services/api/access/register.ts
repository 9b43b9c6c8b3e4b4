import type { FastifyInstance } from 'fastify';
import type { Reservation } from '../../control/ledger.ts';
import { isCsvRequest } from '../reply.ts';
import type { Access } from './access.ts';
import type { Principal } from './authenticate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The access layer built once per app (services/api/access/access.ts). */
    access: Access;
  }
  interface FastifyContextConfig {
    /** false: the route costs no credit (still authenticated and rate-limited). */
    charge?: boolean;
  }
  interface FastifyRequest {
    /** The caller, set by the access hook on every /api/v1 request that gets past it. */
    principal: Principal | null;
    reservation: Reservation | null;
  }
}

/**
 * One hook for the whole /api/v1 scope (not a check per route): authenticate, pace,
 * gate plan features and take the credit in onRequest, before any parsing or
 * validation; give the credit back in onSend when the answer is not a success, so
 * only 2xx answers cost a credit.
 */
export function registerAccess(scope: FastifyInstance, access: Access): void {
  scope.decorateRequest('principal', null);
  scope.decorateRequest('reservation', null);
  scope.addHook('onRequest', async (request, reply) => {
    const principal = access.authenticate(request.headers);
    request.principal = principal;
    const admission = await access.admit(
      principal,
      { surface: 'rest', csv: isCsvRequest(request), charge: request.routeOptions.config.charge !== false },
      request.id,
    );
    request.reservation = admission.reservation;
    reply.headers(admission.headers);
  });
  scope.addHook('onSend', async (request, reply, payload) => {
    const reservation = request.reservation;
    if (reservation && reply.statusCode >= 300) {
      request.reservation = null;
      access.refund(reservation);
    }
    return payload;
  });
}
