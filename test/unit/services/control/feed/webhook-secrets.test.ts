// @module-tag postgres
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createSecretBox, newSigningSecret, SecretUnreadableError } from '../../../../../services/control/feed/webhook-secrets.ts';

describe('webhook signing secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes, which the standardwebhooks library takes as is', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
    const signed = new Webhook(secret).sign('evt_1', new Date(), '{}');
    expect(
      new Webhook(secret).verify('{}', {
        'webhook-id': 'evt_1',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': signed,
      }),
    ).toEqual({});
  });

  it('are sealed so that only the same key and the same endpoint open them, and the sealed bytes hold no trace of the secret', () => {
    const box = createSecretBox('k'.repeat(32));
    const secret = newSigningSecret();
    const sealed = box.seal(secret, 'whe_a');
    expect(box.open(sealed, 'whe_a')).toBe(secret);
    expect(sealed.includes(Buffer.from(secret))).toBe(false);
    expect(sealed.includes(Buffer.from(secret.slice(6), 'base64'))).toBe(false);
    // A fresh IV each time: sealing twice gives different bytes.
    expect(box.seal(secret, 'whe_a').equals(sealed)).toBe(false);
    expect(() => box.open(sealed, 'whe_b')).toThrow(SecretUnreadableError);
    expect(() => createSecretBox('j'.repeat(32)).open(sealed, 'whe_a')).toThrow(SecretUnreadableError);
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => box.open(tampered, 'whe_a')).toThrow(SecretUnreadableError);
  });
});
