import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Reservation } from '../../control/billing/ledger.ts';
import { errorReply } from '../error-reply.ts';
import { isCsvRequest } from '../reply.ts';
import type { Access, Admission } from './access.ts';
import type { Principal } from './authenticate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The access layer built once per app (services/api/access/access.ts). */
    access: Access;
  }
  interface FastifyContextConfig {
    /** false: the route costs no credit (still authenticated and rate-limited). */
    charge?: boolean;
    /** true: an analytic route, counted in the client's smaller analytic share (access.holdAnalytic). */
    analytic?: boolean;
    /** true: the route needs the CSV plan feature whatever its format (the bulk files). */
    csvFeature?: boolean;
  }
  interface FastifyRequest {
    /** The caller, set by the access hook on every /api/v1 request that gets past it. */
    principal: Principal | null;
    reservation: Reservation | null;
    /** An admission still running beside the route's read; onSend waits for it. */
    admission: Promise<Admission> | null;
  }
}

/**
 * The request fields the access layer sets, on a scope that has not got them yet
 * (the /api/v1 scope and /api/mcp each call this; a test scope beside them too).
 */
export function decorateAccess(scope: FastifyInstance): void {
  for (const name of ['principal', 'reservation', 'admission'] as const)
    if (!scope.hasRequestDecorator(name)) scope.decorateRequest(name, null);
}

/**
 * One hook for the whole /api/v1 scope (not a check per route): authenticate in
 * onRequest, before any parsing or validation, count the request in flight, then
 * pace, gate plan features and take the credit; settle in onSend (the one refund
 * path, shared with MCP): only 2xx answers keep their credit.
 *
 * The window lives in Redis, a round trip that would otherwise come before the
 * engine's. For a client seen moments ago with slots to spare (access.mayOverlap)
 * the route starts at once and onSend waits for the admission: nothing is sent
 * before the window and the credit have answered, and a refusal replaces whatever
 * the route produced (a 400 or a page alike) with the 429, 403 or 402 it would have
 * got. Every other request waits for its admission here, as before.
 */
export function registerAccess(scope: FastifyInstance, access: Access): void {
  decorateAccess(scope);
  scope.addHook('onRequest', async (request, reply) => {
    const principal = await access.authenticate(request.headers);
    request.principal = principal;
    access.hold(principal, reply.raw);
    if (request.routeOptions.config.analytic === true) access.holdAnalytic(principal, reply.raw);
    const asked = {
      surface: 'rest',
      csv: isCsvRequest(request) || request.routeOptions.config.csvFeature === true,
      charge: request.routeOptions.config.charge !== false,
    } as const;
    // A write never overlaps: it must not change anything before its admission says yes.
    if ((request.method === 'GET' || request.method === 'HEAD') && access.mayOverlap(principal, asked)) {
      // Started on the next turn, so the route's engine request (sent in this one) leaves first
      // and the window's round trip and the credit's write happen while the engine works.
      const admission = new Promise<Admission>((resolve) => setImmediate(() => resolve(access.admit(principal, asked, request.id))));
      // Handled in onSend; until then a refusal must not count as unhandled.
      admission.catch(() => undefined);
      request.admission = admission;
      return;
    }
    admitted(request, reply, await access.admit(principal, asked, request.id));
  });
  scope.addHook('onSend', async (request, reply, payload) => {
    const pending = request.admission;
    if (pending) {
      request.admission = null;
      try {
        admitted(request, reply, await pending);
      } catch (err) {
        // The route's answer (whatever it was) is not sent; nothing was charged for it.
        reply.type('application/json; charset=utf-8');
        return JSON.stringify(errorReply(err, request, reply));
      }
    }
    await access.settle(request, reply.statusCode < 300);
    return payload;
  });
}

function admitted(request: FastifyRequest, reply: FastifyReply, admission: Admission): void {
  request.reservation = admission.reservation;
  reply.headers(admission.headers);
}
