import type { Database } from 'better-sqlite3';
import { signingSecrets } from '../../services/control/webhook-endpoints.ts';
import type { SecretBox } from '../../services/control/webhook-secrets.ts';

/**
 * An endpoint's signing secrets, opened (AES-GCM) once a second at most rather than once per
 * delivery: a busy endpoint gets hundreds of deliveries a second. A rotation therefore signs
 * with the new secret within a second, while the old one is still valid for a day.
 */
export interface SigningSecrets {
  get(endpointId: string): string[];
}

export function createSigningSecrets(db: Database, box: SecretBox, ttlMs = 1000): SigningSecrets {
  const cache = new Map<string, { secrets: string[]; until: number }>();
  return {
    get(endpointId) {
      const now = Date.now();
      const hit = cache.get(endpointId);
      if (hit && hit.until > now) return hit.secrets;
      const secrets = signingSecrets(db, box, endpointId, new Date(now));
      cache.delete(endpointId);
      cache.set(endpointId, { secrets, until: now + ttlMs });
      if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
      return secrets;
    },
  };
}
