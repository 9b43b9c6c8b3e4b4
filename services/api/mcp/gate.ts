import type { IncomingHttpHeaders } from 'node:http';

/**
 * The access check of /api/mcp: the same keys, header rules, plans, window and
 * credit bucket as /api/v1 (issue 11 item 3), through the access layer's plain
 * functions. Two steps, both before any MCP handling:
 *   identify(headers)                  onRequest, before the body is read: the one 401
 *   admit(caller, charge, requestId)   once the body says whether this is a tools/call:
 *                                      the per-minute window (every request), the plan's
 *                                      MCP flag (403), and 1 credit for a tools/call
 * The credit is settled when the HTTP exchange ends: kept if the call answered a
 * result, given back otherwise (REST keeps only 2xx answers, likewise).
 */

export interface Admission {
  /** Rate-limit headers for the response (spec 8.6). */
  headers: Record<string, string>;
  /** Called once when the exchange ends. */
  settle(succeeded: boolean): void;
}

export interface McpGate<Caller = unknown> {
  identify(headers: IncomingHttpHeaders): Caller;
  admit(caller: Caller, charge: boolean, requestId: string): Promise<Admission>;
}

/** The slice of the access layer (services/api/access/access.ts) this gate calls. */
export interface AccessFunctions<P, R> {
  authenticate(headers: IncomingHttpHeaders): P;
  admit(principal: P, request: { surface: 'mcp'; csv: boolean; charge: boolean }, requestId: string): Promise<{ headers: Record<string, string>; reservation: R | null }>;
  refund(reservation: R): void;
}

export function accessGate<P, R>(access: AccessFunctions<P, R>): McpGate<P> {
  return {
    identify: (headers) => access.authenticate(headers),
    async admit(principal, charge, requestId) {
      const { headers, reservation } = await access.admit(principal, { surface: 'mcp', csv: false, charge }, requestId);
      let settled = false;
      return {
        headers,
        settle(succeeded) {
          if (settled) return;
          settled = true;
          if (!succeeded && reservation) access.refund(reservation);
        },
      };
    },
  };
}

/** No access layer in this app (tests of the MCP machinery alone): every request is let in, nothing is charged. */
export const openGate: McpGate<null> = {
  identify: () => null,
  admit: async () => ({ headers: {}, settle: () => undefined }),
};
