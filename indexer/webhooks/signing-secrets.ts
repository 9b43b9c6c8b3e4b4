import { signingSecrets } from '../../services/control/feed/webhook-endpoints.ts';
import type { SecretBox } from '../../services/control/feed/webhook-secrets.ts';
import type { Sql } from '../../services/control/db/sql.ts';

/**
 * An endpoint's signing secrets, opened (AES-GCM) once a second at most rather than once per
 * delivery: a busy endpoint gets hundreds of deliveries a second. A rotation therefore signs
 * with the new secret within a second, while the old one is still valid for a day.
 */
export interface SigningSecrets {
  get(endpointId: string): Promise<string[]>;
}

export function createSigningSecrets(sql: Sql, box: SecretBox, ttlMs = 1000): SigningSecrets {
  const cache = new Map<string, { secrets: string[]; until: number }>();
  return {
    async get(endpointId) {
      const now = Date.now();
      const hit = cache.get(endpointId);
      if (hit && hit.until > now) return hit.secrets;
      const secrets = await signingSecrets(sql, box, endpointId, new Date(now));
      cache.delete(endpointId);
      cache.set(endpointId, { secrets, until: now + ttlMs });
      if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
      return secrets;
    },
  };
}
