import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks signature (standardwebhooks.com): `v1,<base64 HMAC-SHA256 of
 * "<webhook-id>.<webhook-timestamp>.<body>">` with the library receivers verify with. Right after
 * a rotation two secrets are valid, and the header carries both signatures, space-separated.
 */

const signers = new Map<string, Webhook>();

function signer(secret: string): Webhook {
  let found = signers.get(secret);
  if (!found) {
    found = new Webhook(secret);
    signers.set(secret, found);
    // A secret lives as long as its endpoint; the map only bounds what rotations leave behind.
    if (signers.size > 10_000) signers.delete(signers.keys().next().value!);
  }
  return found;
}

export type SignedHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

export function signDelivery(secrets: readonly string[], id: string, at: Date, body: string): SignedHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => signer(s).sign(id, at, body)).join(' '),
  };
}
