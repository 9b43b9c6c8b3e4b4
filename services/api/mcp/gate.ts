import type { Ledger } from '../../control/billing/ledger.ts';
import type { Principal } from '../access/authenticate.ts';

/**
 * Who is calling, as the tools see it (get_usage reads the caller's bucket). The
 * admission itself is the access layer's, the same for REST and MCP
 * (services/api/access/access.ts); /api/mcp calls it from its hooks (route.ts).
 */
export interface Caller {
  principal: Principal;
  ledger: Ledger;
}
