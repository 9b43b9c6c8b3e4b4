import type { IncomingHttpHeaders } from 'node:http';
import type { Ledger } from '../../control/ledger.ts';
import type { Access } from '../access/access.ts';
import type { Principal } from '../access/authenticate.ts';

/**
 * The access check of /api/mcp: the same keys, header rules, plans, window and
 * credit bucket as /api/v1 (issue 11 item 3), through the access layer's plain
 * functions. Two steps, both before any MCP handling:
 *   identify(headers)                  onRequest, before the body is read: the one 401
 *   admit(caller, charge, requestId)   once the body says whether this is a tools/call:
 *                                      the per-minute window (every request), the plan's
 *                                      MCP flag (403 mcp_disabled), 1 credit for a tools/call
 * The credit is settled when the HTTP exchange ends: kept if the call answered a
 * result, given back otherwise (REST keeps only 2xx answers, likewise).
 */

/** Who is calling, as the tools see it (get_usage reads the caller's bucket). */
export interface Caller {
  principal: Principal;
  ledger: Ledger;
}

export interface Admission {
  /** Rate-limit headers for the response (spec 8.6). */
  headers: Record<string, string>;
  /** Called once when the exchange ends. */
  settle(succeeded: boolean): void;
}

export interface McpGate {
  identify(headers: IncomingHttpHeaders): Caller;
  admit(caller: Caller, charge: boolean, requestId: string): Promise<Admission>;
}

export function accessGate(access: Access): McpGate {
  return {
    identify: (headers) => ({ principal: access.authenticate(headers), ledger: access.ledger }),
    async admit(caller, charge, requestId) {
      const { headers, reservation } = await access.admit(caller.principal, { surface: 'mcp', csv: false, charge }, requestId);
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
