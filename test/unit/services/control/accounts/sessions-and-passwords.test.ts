// @module-tag postgres
import { describe, expect, it } from 'vitest';
import { createDummyHash, hashPassword, needsRehash, verifyPassword } from '../../../../../services/control/accounts/passwords.ts';
import { SESSION_IDLE_MS, SESSION_MAX_MS, sessionState } from '../../../../../services/control/accounts/sessions.ts';

describe('session clocks (idle 30 minutes, 12 hours at most)', () => {
  const start = '2026-05-01T08:00:00.000Z';
  const at = (ms: number) => new Date(Date.parse(start) + ms);

  it('a session is usable until 30 minutes pass without a request', () => {
    expect(sessionState({ createdAt: start, lastSeenAt: start }, at(SESSION_IDLE_MS - 1))).toBe('active');
    expect(sessionState({ createdAt: start, lastSeenAt: start }, at(SESSION_IDLE_MS))).toBe('idle');
  });

  it('and never past 12 hours after it began, however busy', () => {
    const lastSeen = at(SESSION_MAX_MS - 60_000).toISOString();
    expect(sessionState({ createdAt: start, lastSeenAt: lastSeen }, at(SESSION_MAX_MS - 1))).toBe('active');
    expect(sessionState({ createdAt: start, lastSeenAt: lastSeen }, at(SESSION_MAX_MS))).toBe('expired');
  });
});

describe('password hashes', () => {
  it('are argon2id at the OWASP costs (19 MiB, 2 passes, 1 lane) and verify only their password', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse battery stapler')).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it('a hash at other costs is due for a rehash; a stored value that is no hash never verifies', async () => {
    expect(needsRehash('$argon2id$v=19$m=4096,t=3,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g')).toBe(true);
    expect(needsRehash('not a hash')).toBe(true);
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
  });

  it('the dummy hash checked for unknown addresses costs what a real one costs and matches nothing', async () => {
    const dummy = await createDummyHash();
    expect(dummy).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(dummy, '')).toBe(false);
  });
});
