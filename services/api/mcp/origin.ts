/**
 * The Origin check of /api/mcp. The MCP Streamable HTTP transport
 * says a server MUST validate Origin, against DNS rebinding: a hostile page whose
 * name is made to resolve to this server could otherwise drive it from a victim's
 * browser. Browsers send Origin on such requests; agents, the SDK's client and curl
 * send none, and those pass.
 *
 * A present Origin passes only when it is on MCP_ALLOWED_ORIGINS, compared exactly
 * as browsers serialize it (config.ts normalizes the list). There is no exception
 * for "the server's own origin": under DNS rebinding the hostile page's Origin and
 * the Host header name the same attacker's host, so Host cannot tell them apart,
 * and no page of ours calls /api/mcp. "null" (sandboxed frames, file: pages) and a
 * repeated header never pass.
 */
export function originAllowed(origin: string | string[] | undefined, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  return typeof origin === 'string' && allowed.has(origin);
}
