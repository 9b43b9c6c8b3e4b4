import { describe, expect, it } from 'vitest';
import { certificateDocument, withIndexFields } from '../../../../indexer/certificates/certificate-document.ts';
import { createHolderGroups, createHolderMemory } from '../../../../indexer/holder-memory.ts';
import { holderGroup, parseHolderAliases } from '../../../../services/domain/holder-groups.ts';
import { holderId } from '../../../../services/domain/ids.ts';
import type { CertificateRecord } from '../../../../services/domain/records.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

const aliases = parseHolderAliases({
  groups: [{ name: 'Sunshine Lien Partners', spellings: ['SLP Holdings LLC'], why: 'one fund, two names' }],
});

const facts = [
  { holder_name: 'FL TAX LIEN FUND 11 LLC', county_slug: 'alachua', county_name: 'Alachua', struck_to_county: false },
  { holder_name: 'Fl Tax Lien Fund 3, L.L.C.', county_slug: 'alachua', county_name: 'Alachua', struck_to_county: false },
  { holder_name: 'SLP Holdings LLC', county_slug: 'alachua', county_name: 'Alachua', struck_to_county: false },
  { holder_name: 'Alachua County', county_slug: 'alachua', county_name: 'Alachua', struck_to_county: false },
  { holder_name: 'JOHN SMITH II', county_slug: 'alachua', county_name: 'Alachua', struck_to_county: true },
  { holder_name: 'JOHN SMITH II', county_slug: 'alachua', county_name: 'Alachua', struck_to_county: false },
  // The same spelling in another county: the county's own certificates group by county.
  { holder_name: 'Alachua County', county_slug: 'baker', county_name: 'Baker', struck_to_county: false },
  { holder_name: 'JOHN SMITH II', county_slug: 'baker', county_name: 'Baker', struck_to_county: true },
];

describe('createHolderGroups', () => {
  it('answers exactly what holderGroup answers, for every spelling, county and struck flag, asked once or again', () => {
    const groupOf = createHolderGroups(aliases);
    for (const round of [1, 2])
      for (const f of facts) expect(groupOf(f), `${f.holder_name} ${f.county_slug} round ${round}`).toEqual(holderGroup(f, aliases));
  });

  it('remembers a spelling: the second row of a holder gets the first row group', () => {
    const groupOf = createHolderGroups(aliases);
    expect(groupOf(facts[0]!)).toBe(groupOf({ ...facts[0]! }));
  });

  it('forgets everything past its bound and still answers the same', () => {
    const groupOf = createHolderGroups(aliases, 2);
    const first = groupOf(facts[0]!);
    groupOf(facts[1]!);
    groupOf(facts[2]!);
    const again = groupOf(facts[0]!);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

describe('createHolderMemory', () => {
  it('answers what holderId and holderGroup answer, with the aliases it was built from', () => {
    const memory = createHolderMemory(aliases);
    for (const f of facts) {
      expect(memory.ids(f.holder_name)).toBe(holderId(f.holder_name));
      expect(memory.groups(f)).toEqual(holderGroup(f, aliases));
    }
  });

  it('keeps what one file taught it for the next: a holder seen before gets the same group object', () => {
    const memory = createHolderMemory(aliases);
    const first = memory.groups(facts[0]!);
    expect(memory.groups({ ...facts[0]! })).toBe(first);
  });
});

describe('withIndexFields', () => {
  it('makes the same document, field for field and in the same order, as certificateDocument', () => {
    const groupOf = createHolderGroups(aliases);
    for (const [i, holder] of ['FL TAX LIEN FUND 11 LLC', 'SLP Holdings LLC', 'JANE DOE'].entries()) {
      const record = sampleCertificate({ holder_name: holder }, i) as CertificateRecord;
      const expected = JSON.stringify(certificateDocument({ ...record }, aliases));
      const built = withIndexFields({ ok: true, record: { ...record } }, groupOf);
      expect(built.ok && JSON.stringify(built.record)).toBe(expected);
    }
  });

  it('leaves a refused row refused', () => {
    const refused = { ok: false as const, reasons: [{ field: 'status', problem: 'required' }] };
    expect(withIndexFields(refused, createHolderGroups(aliases))).toBe(refused);
  });
});
