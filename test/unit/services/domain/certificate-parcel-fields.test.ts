import { describe, expect, it } from 'vitest';
import { certificateParcelFields } from '../../../../services/domain/certificate-parcel-fields.ts';
import { ownerType } from '../../../../services/domain/owner-type.ts';
import type { ParcelFacts } from '../../../../services/domain/parcel-facts.ts';
import { parseSitusCityZip } from '../../../../services/domain/situs-address.ts';

describe('owner type: the holder-group rule over the owner name', () => {
  it.each([
    ['OAK GROVE HOLDINGS INC', 'entity'],
    ['Sunshine Properties, L.L.C.', 'entity'],
    ['ACME HOLDINGS TRUST', 'entity'],
    ['BAYVIEW PARTNERS LP', 'entity'],
    ['FIRST NATIONAL BANK', 'entity'],
    ['1234 MAIN ST LLC', 'entity'],
    ['SMITH, JOHN & MARY', 'person'],
    ["O'BRIEN, PATRICK", 'person'],
    ['JOHN SMITH II', 'person'],
    ['GARCIA, ANA', 'person'],
    ['', 'person'],
    [null, 'person'],
  ])('%j is an %s', (name, type) => {
    expect(ownerType(name)).toBe(type);
  });
});

describe('city and ZIP from a situs address', () => {
  it.each([
    ['123 NW 5TH ST, MIAMI, FL 33101', { situs_city: 'MIAMI', situs_zip: '33101' }],
    ['77 OCEAN DR #4B, Miami  Beach, FL 33139', { situs_city: 'MIAMI BEACH', situs_zip: '33139' }],
    ['12 OAK AVE, FORT MYERS FL 33901-1234', { situs_city: 'FORT MYERS', situs_zip: '33901' }],
    ['12 OAK AVE, NAPLES, FLORIDA', { situs_city: 'NAPLES' }],
    ['0 UNASSIGNED', {}],
    ['12 OAK AVE, 33101, FL 33101', { situs_zip: '33101' }],
    ['', {}],
    [null, {}],
  ])('%j names %j', (address, expected) => {
    expect(parseSitusCityZip(address)).toEqual(expected);
  });
});

const PARCEL: ParcelFacts = {
  assessment_year: 2025,
  just_value: 350000,
  land_sqft: 7500,
  use_code: '001',
  homestead: false,
  situs_address: '123 NW 5TH ST',
  situs_city: 'MIAMI GARDENS',
  situs_zip: '33169',
  lat: 25.942,
  lon: -80.2456,
};

describe("a certificate document's parcel fields", () => {
  const cert = { owner_name: 'OAK GROVE HOLDINGS INC', site_address_full: '123 NW 5TH ST, MIAMI, FL 33101' };

  it('takes every fact, the location and the city and ZIP of its parcel row when it has one', () => {
    expect(certificateParcelFields(cert, PARCEL)).toEqual({
      owner_type: 'entity',
      location: { lat: 25.942, lon: -80.2456 },
      just_value: 350000,
      land_sqft: 7500,
      use_code: '001',
      homestead: false,
      assessment_year: 2025,
      parcel_address: '123 NW 5TH ST',
      situs_city: 'MIAMI GARDENS',
      situs_zip: '33169',
    });
  });

  it('without one: no location, city and ZIP from its own address when it names them', () => {
    expect(certificateParcelFields(cert, undefined)).toEqual({ owner_type: 'entity', situs_city: 'MIAMI', situs_zip: '33101' });
    expect(certificateParcelFields({ owner_name: 'DOE, JANE', site_address_full: '0 UNASSIGNED' }, undefined)).toEqual({
      owner_type: 'person',
    });
  });
});
