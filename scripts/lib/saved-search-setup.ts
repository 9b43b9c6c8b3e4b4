import { createKey } from '../../services/control/billing/api-keys.ts';
import { createClient } from '../../services/control/billing/clients.ts';
import { SAVED_SEARCH_LIMITS } from '../../services/api/writes/limits.ts';
import type { Runtime } from '../../services/process/runtime.ts';
import { apiCall } from './api-call.ts';
import type { SavedSearchSpec } from './saved-search-mix.ts';

/**
 * The benchmark's saved searches, made as customers make them: through the running stack's API
 * (POST /api/v1/saved-searches), which writes each one's percolator query. Enterprise clients, as
 * many as the plan's limit a client needs, each with a live key, made in the control plane the
 * stack reads (as bench-webhooks makes its clients).
 */

export interface CreatedSearch {
  id: string;
  /** The owner's key. */
  key: string;
  /** The params as the API read and stored them (lists as arrays, numbers as numbers). */
  params: Record<string, unknown>;
}

/** Requests in flight at once: under a client's concurrency limit (CLIENT_MAX_CONCURRENT, 16). */
const IN_FLIGHT = 8;

export async function createSavedSearches(
  runtime: Pick<Runtime, 'sql' | 'config'>,
  baseUrl: string,
  specs: readonly SavedSearchSpec[],
): Promise<{ searches: CreatedSearch[]; clients: number; seconds: number }> {
  const perClient = SAVED_SEARCH_LIMITS.enterprise;
  const keys: string[] = [];
  for (let c = 0; c * perClient < specs.length; c++) {
    const client = await createClient(runtime.sql, { name: `bench saved searches ${c + 1}`, plan: 'enterprise' });
    const { raw } = await createKey(runtime.sql, {
      clientId: client.id,
      env: 'live',
      prefix: runtime.config.KEY_PREFIX,
      secret: runtime.config.KEY_HASH_SECRET,
    });
    keys.push(raw);
  }
  const searches: CreatedSearch[] = new Array(specs.length);
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < specs.length) {
      const i = next++;
      const key = keys[Math.floor(i / perClient)]!;
      const res = await apiCall(`${baseUrl}/api/v1/saved-searches`, key, { method: 'POST', body: specs[i] });
      if (res.status !== 201) throw new Error(`saved search ${i + 1}: ${res.status} ${JSON.stringify(res.body)}`);
      const data = (res.body as { data: { id: string; params: Record<string, unknown> } }).data;
      searches[i] = { id: data.id, key, params: data.params };
      if ((i + 1) % 1000 === 0) console.error(`  ${i + 1} saved searches created`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { searches, clients: keys.length, seconds: Math.round((performance.now() - t0) / 100) / 10 };
}
