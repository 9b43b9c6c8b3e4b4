import { describe, expect, it } from 'vitest';
import {
  certificateId,
  createHolderIds,
  holderId,
  ID_ORDER_DIGITS,
  idOrder,
  normalizeHolderName,
  normalizeKey,
} from '../../../../services/domain/ids.ts';

describe('ids', () => {
  it('normalizes keys and holder names as people type them', () => {
    expect(normalizeKey('12-34-56 a')).toBe('123456A');
    expect(normalizeHolderName('  Gulf Coast Lien Fund II, LLC ')).toBe('gulf coast lien fund ii llc');
    expect(normalizeHolderName('Smith & Sons')).toBe('smith and sons');
  });

  it('gives one holder id to spellings that normalize alike', () => {
    expect(holderId('ACME Tax Fund, LLC')).toBe(holderId('acme tax fund llc'));
    expect(holderId('Acme Tax Fund LLC')).toMatch(/^hld_[0-9a-f]{20}$/);
  });

  it('a holder-id cache answers as holderId does, also after it was dropped at its bound', () => {
    const ids = createHolderIds(2);
    const names = ['Acme Tax Fund LLC', 'Sunshine Liens LP', 'Gator Capital', 'Acme Tax Fund LLC'];
    expect(names.map(ids)).toEqual(names.map((n) => holderId(n)));
  });

  it('two caches share nothing', () => {
    const a = createHolderIds();
    const b = createHolderIds();
    expect(a('Gator Capital')).toBe(b('Gator Capital'));
    expect(a).not.toBe(b);
  });
});

describe('idOrder (the order twin deep pages cut the id on)', () => {
  const ids = Array.from({ length: 2000 }, (_, n) => certificateId('miami-dade', 2023, `2023-${n}`)).sort();

  it('never decreases along the ids in string order', () => {
    for (let i = 1; i < ids.length; i++) expect(idOrder(ids[i]!)).toBeGreaterThanOrEqual(idOrder(ids[i - 1]!));
  });

  it('splits the ids exactly as the string cut of its hex digits does', () => {
    for (const id of ids.slice(0, 200)) {
      const n = idOrder(id);
      const cut = `cert_${n.toString(16).padStart(ID_ORDER_DIGITS, '0')}`;
      for (const other of ids) expect(idOrder(other) < n).toBe(other < cut);
    }
  });

  it('stays a whole number a double holds exactly', () => {
    expect(idOrder('cert_fffffffffffffffffffff')).toBe(16 ** ID_ORDER_DIGITS - 1);
    expect(Number.isSafeInteger(16 ** ID_ORDER_DIGITS)).toBe(true);
  });
});
