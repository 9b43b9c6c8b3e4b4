import { describe, expect, it } from 'vitest';
import { countyHolderName, parcelUrl } from '../../../../services/domain/county-facts.ts';

describe('county facts', () => {
  it('names the county as a holder', () => {
    expect(countyHolderName('Miami-Dade')).toBe('Miami-Dade County');
  });

  it('builds a parcel URL with one slash and an encoded parcel id', () => {
    expect(parcelUrl('https://p.example/v1/parcels/', 'st-johns', '12 34/5')).toBe('https://p.example/v1/parcels/st-johns/12%2034%2F5');
  });
});
