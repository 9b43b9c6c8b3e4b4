import { describe, expect, it } from 'vitest';
import { floridaToday } from '../../../../../services/api/routes/certificate-sales/florida-today.ts';
import { mapSaleRow, type SaleDocument } from '../../../../../services/api/routes/certificate-sales/map-row.ts';
import { SALE_COLUMNS } from '../../../../../services/api/routes/certificate-sales/row.ts';
import { mapHolderRow } from '../../../../../services/api/routes/holders/map-row.ts';
import { HOLDER_COLUMNS } from '../../../../../services/api/routes/holders/row.ts';
import { mapLandsRow } from '../../../../../services/api/routes/lands-available/map-row.ts';
import { LANDS_COLUMNS } from '../../../../../services/api/routes/lands-available/row.ts';

const sale: SaleDocument = {
  id: 'csale_0123456789abcdef0123',
  county_slug: 'alachua',
  county_name: 'Alachua',
  tax_year: 2024,
  sale_date: '2025-05-20',
  last_sale_date: '2025-05-22',
  vendor: 'lienport',
  sale_url: 'https://alachua.lienport.example/sale',
  certificates_offered: 10,
  certificates_sold: 8,
  face_value_offered: 12345.67,
  face_value_sold: 10000.01,
  average_bid_rate: 4.25,
  struck_to_county: 2,
};

describe('sale status on the day it is read', () => {
  it.each([
    ['2025-05-19', 'scheduled'],
    ['2025-05-20', 'in_progress'],
    ['2025-05-21', 'in_progress'],
    ['2025-05-22', 'in_progress'],
    ['2025-05-23', 'completed'],
  ])('on %s the 2025-05-20..22 sale is %s', (today, status) => {
    expect(mapSaleRow(sale, today).status).toBe(status);
  });

  it('takes a sale without a stored last day (mapping v1 documents) as one day long', () => {
    const { last_sale_date: _, ...old } = sale;
    expect(mapSaleRow(old, '2025-05-20').status).toBe('in_progress');
    expect(mapSaleRow(old, '2025-05-21').status).toBe('completed');
  });

  it('renders exactly the fields of spec 2.3, in the row schema order', () => {
    const row = mapSaleRow({ ...sale, status: 'scheduled', updated_at: '2025-01-01T00:00:00.000Z' } as SaleDocument, '2026-01-01');
    expect(Object.keys(row)).toEqual(SALE_COLUMNS);
    expect(row).toMatchObject({ status: 'completed', face_value_offered: 12345.67, certificates_offered: 10 });
  });

  it("judges the day in Florida's time zone, not UTC", () => {
    // 02:00 UTC on May 20 is still May 19 in Florida (EDT, UTC-4).
    expect(floridaToday(new Date('2025-05-20T02:00:00Z'))).toBe('2025-05-19');
    expect(floridaToday(new Date('2025-05-20T04:00:00Z'))).toBe('2025-05-20');
    // Winter: EST, UTC-5.
    expect(floridaToday(new Date('2025-01-01T04:59:00Z'))).toBe('2024-12-31');
  });
});

describe('holder and lands-available mappers', () => {
  it('a holder row has exactly the fields of spec 2.4 (updated_at stays in the index)', () => {
    const row = mapHolderRow({
      id: 'hld_0123456789abcdef0123',
      name: 'Gulf Coast Lien Fund II, LLC',
      normalized_name: 'gulf coast lien fund ii llc',
      certificate_count: 42,
      outstanding_face_amount: 61234.56,
      counties: ['alachua', 'miami-dade'],
      first_seen_tax_year: 2019,
      last_seen_tax_year: 2024,
      updated_at: '2025-01-01T00:00:00.000Z',
    } as Parameters<typeof mapHolderRow>[0]);
    expect(Object.keys(row)).toEqual(HOLDER_COLUMNS);
    expect(row).not.toHaveProperty('updated_at');
  });

  it('a lands-available row builds parcel_url from the base URL given now, not the stored one', () => {
    const stored = {
      id: 'cert_0123456789abcdef0123',
      certificate_number: '2019-001234',
      certificate_number_normalized: '2019001234',
      county_slug: 'alachua',
      county_name: 'Alachua',
      parcel_id: '01234-005-000',
      parcel_id_normalized: '01234005000',
      tax_year: 2019,
      status: 'lands_available' as const,
      face_amount: 1234.56,
      opening_bid: 3456.78,
      tax_deed_application_date: '2022-06-15',
      available_since: '2022-09-01',
      owner_name: 'SMITH, JOHN & MARY',
      site_address_full: '123 NW 5TH AVE, GAINESVILLE, FL 32601',
      parcel_url: 'https://old.example/parcels/alachua/01234-005-000',
      ingested_at: '2025-01-01T00:00:00.000Z',
    };
    const row = mapLandsRow(stored, 'https://new.example/p/');
    expect(Object.keys(row)).toEqual(LANDS_COLUMNS);
    expect(row.parcel_url).toBe('https://new.example/p/alachua/01234-005-000');
    expect(row).not.toHaveProperty('ingested_at');
    expect(row).not.toHaveProperty('parcel_id_normalized');
  });
});
