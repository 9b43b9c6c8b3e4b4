import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets. A secret is `whsec_` and the base64 of 32
 * random bytes, the form the Standard Webhooks libraries take as is. It is shown once (at
 * creation and at each rotation) and stored only sealed with AES-256-GCM, under a key derived
 * from WEBHOOK_SECRET_KEY, with the endpoint id as associated data so a sealed secret copied
 * onto another endpoint's row does not open. A copy of the database alone signs nothing.
 */

export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** A sealed secret that does not open: WEBHOOK_SECRET_KEY changed, or the row was tampered with. */
export class SecretUnreadableError extends Error {
  override name = 'SecretUnreadableError';
  readonly code = 'secret_unreadable';
  constructor(readonly endpointId: string) {
    super(
      `the signing secret of ${endpointId} does not decrypt under WEBHOOK_SECRET_KEY (was the key changed?); rotate the endpoint's secret`,
    );
  }
}

export interface SecretBox {
  /** iv || tag || ciphertext of the secret, bound to the endpoint id. */
  seal(secret: string, endpointId: string): Buffer;
  open(sealed: Buffer, endpointId: string): string;
}

/** The box for one WEBHOOK_SECRET_KEY; HKDF turns any 32+ character key into the 256-bit AES key. */
export function createSecretBox(keyMaterial: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(keyMaterial, 'utf8'), Buffer.alloc(0), 'taxcert webhook signing secrets v1', 32));
  return {
    seal(secret, endpointId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(endpointId, 'utf8'));
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(sealed, endpointId) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(endpointId, 'utf8'));
        decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretUnreadableError(endpointId);
      }
    },
  };
}
