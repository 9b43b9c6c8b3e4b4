import { Client } from '@opensearch-project/opensearch';
import type { Config } from '../config.ts';

/** Long enough for a 5 MB bulk batch on a busy 2-core node; searches set their own, shorter timeouts. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The one way to build an OpenSearch client. Built by server.ts, worker.ts or the
 * CLI and passed down; never a module-level singleton.
 */
/** The nodes named by OPENSEARCH_URL: one URL, or several comma-separated (checked by config.ts). */
export function opensearchNodes(url: string): string[] {
  return url.split(',');
}

export function createOpenSearch(config: Pick<Config, 'OPENSEARCH_URL'>): Client {
  return new Client({
    // Several nodes: requests go round them, and a node that refuses is marked dead and skipped.
    nodes: opensearchNodes(config.OPENSEARCH_URL),
    requestTimeout: REQUEST_TIMEOUT_MS,
    // Same host or LAN: gzip costs CPU on both ends of a 2-core box and saves little.
    suggestCompression: false,
    // One retry covers a dropped keep-alive socket; the bulk writer runs its own backoff.
    maxRetries: 1,
    // Every answer is parsed with JSON.parse alone. The default scans each answer twice more, with
    // regular expressions, for "__proto__" and "constructor" keys: a guard for programs that merge
    // untrusted JSON into their objects. Our answers come from our own indices, whose strict
    // mappings admit no such field, and the mappers copy named fields only; the scans cost about a
    // sixth of parsing a page of certificates (see docs/decisions.md, "The request path's CPU
    // budget").
    disablePrototypePoisoningProtection: true,
  });
}

/** True when the node answers within timeoutMs; never throws. */
export async function pingOpenSearch(client: Client, timeoutMs: number): Promise<boolean> {
  try {
    const res = await client.ping({}, { requestTimeout: timeoutMs, maxRetries: 0 });
    return res.statusCode === 200;
  } catch {
    return false;
  }
}
