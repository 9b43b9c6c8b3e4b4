import { describe, expect, it } from 'vitest';
import { createHolderIds, holderId, normalizeHolderName, normalizeKey } from '../../../services/domain/ids.ts';

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
