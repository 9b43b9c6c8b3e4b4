import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  holderGroup,
  holderGroupId,
  holderGroupKey,
  loadHolderAliases,
  parseHolderAliases,
} from '../../../../services/domain/holder-groups.ts';

const fixture = JSON.parse(readFileSync(new URL('../../../../fixtures/holder-groups/spellings.json', import.meta.url), 'utf8')) as {
  cases: { spelling: string; key: string; display: string }[];
};
const aliases = loadHolderAliases();
const inOrange = (holder_name: string, struck_to_county = false) =>
  holderGroup({ holder_name, county_slug: 'orange', county_name: 'Orange', struck_to_county }, aliases);

describe('holderGroupKey on real-looking spellings (fixtures/holder-groups/spellings.json)', () => {
  it.each(fixture.cases)('$spelling -> $key', ({ spelling, key, display }) => {
    expect(holderGroupKey(spelling)).toEqual({ key, display });
  });

  it('numbered funds, custodians and legal-form spellings of one family share one group id', () => {
    const ids = ['FL TAX LIEN FUND 11 LLC', 'Fl Tax Lien Fund 3, L.L.C.'].map((n) => inOrange(n).holder_group_id);
    expect(new Set(ids).size).toBe(1);
    expect(inOrange('US BANK AS CUSTODIAN FOR CAZ CREEK FL LLC').holder_group_id).toBe(inOrange('CAZ CREEK FL LLC').holder_group_id);
    expect(inOrange('TLGFY LLC SERIES 2019').holder_group_id).toBe(inOrange('TLGFY LLC').holder_group_id);
  });

  it("a person's generational numeral or suffix is another person: JOHN SMITH II and JR are not JOHN SMITH", () => {
    const ids = ['JOHN SMITH', 'JOHN SMITH II', 'John Smith Jr.'].map((n) => inOrange(n).holder_group_id);
    expect(new Set(ids).size).toBe(3);
  });

  it('never drops a whole name, and a custodian line without a beneficiary is its own name', () => {
    expect(holderGroupKey('LLC').key).toBe('LLC');
    expect(holderGroupKey('II').key).toBe('II');
    expect(holderGroupKey('US BANK AS CUSTODIAN').key).toBe('US BANK AS CUSTODIAN');
  });
});

describe('the alias file joins spellings the rule cannot see', () => {
  it('FLORIDA TAX LIEN FUND 7 LLC joins FL TAX LIEN FUND, named by the file', () => {
    expect(inOrange('FLORIDA TAX LIEN FUND 7 LLC')).toEqual({
      holder_group_id: inOrange('FL TAX LIEN FUND 11 LLC').holder_group_id,
      holder_group_name: 'FL TAX LIEN FUND',
      county_held: false,
    });
  });

  it('refuses a spelling listed in two groups', () => {
    const file = {
      groups: [
        { name: 'A FUND', spellings: ['SHARED NAME LLC'], why: 'x' },
        { name: 'B FUND', spellings: ['Shared Name'], why: 'y' },
      ],
    };
    expect(() => parseHolderAliases(file)).toThrow(/two groups/);
  });
});

describe("the county's own certificates", () => {
  it('form one group per county whatever the spelling, named as the county holder', () => {
    const a = inOrange('Orange County');
    expect(a).toEqual({ holder_group_id: holderGroupId('county:orange'), holder_group_name: 'Orange County', county_held: true });
    expect(inOrange('ORANGE COUNTY TAX COLLECTOR')).toEqual(a);
    expect(inOrange('ORANGE BCC', true)).toEqual(a);
  });

  it('a bidder named after the county is not the county', () => {
    expect(inOrange('ORANGE GROVE LIEN CO LLC').county_held).toBe(false);
  });

  it('group ids are stable: grp_ and 20 hex digits of the key', () => {
    expect(inOrange('TLGFY LLC').holder_group_id).toMatch(/^grp_[0-9a-f]{20}$/);
    expect(inOrange('TLGFY LLC').holder_group_id).toBe(holderGroupId('holder:TLGFY'));
  });
});
