import { describe, expect, it } from 'vitest';
import { saleChange } from '../../../../indexer/events/sale-change.ts';
import type { SaleRow } from '../../../../services/domain/sale-row.ts';

// The change feed: a sale's creation and status moves are told once, by the ingest or the scheduled job.

const row: SaleRow = {
  id: 'csale_0123456789abcdef0123',
  county_slug: 'alachua',
  county_name: 'Alachua',
  tax_year: 2024,
  sale_date: '2025-05-20',
  vendor: 'lienport',
  sale_url: null,
  certificates_offered: 10,
  certificates_sold: 8,
  face_value_offered: 100,
  face_value_sold: 80,
  average_bid_rate: 4.25,
  struck_to_county: 2,
  status: 'in_progress',
};

describe('what the feed says about a sale', () => {
  it('tells the creation of an announced sale once, from the ingest that wrote it; the job leaves it to that ingest', () => {
    expect(saleChange({ status: null }, row, 'ingest')).toEqual({
      event: { type: 'certificate_sale.created', countySlug: 'alachua', data: { object: row, previous: {} } },
      status: 'in_progress',
    });
    expect(saleChange({ status: null }, row, 'schedule')).toEqual({ event: null, status: null });
  });

  it('tells a status move with the status told before, whoever sees it first', () => {
    for (const by of ['ingest', 'schedule'] as const)
      expect(saleChange({ status: 'scheduled' }, row, by)).toEqual({
        event: { type: 'certificate_sale.status_changed', countySlug: 'alachua', data: { object: row, previous: { status: 'scheduled' } } },
        status: 'in_progress',
      });
  });

  it('tells nothing when the status is the one told', () => {
    expect(saleChange({ status: 'in_progress' }, row, 'schedule')).toEqual({ event: null, status: null });
  });

  it('takes a sale older than the feed as told, without an event (its creation and past are unknown)', () => {
    expect(saleChange(null, row, 'ingest')).toEqual({ event: null, status: 'in_progress' });
    expect(saleChange(null, row, 'schedule')).toEqual({ event: null, status: 'in_progress' });
  });
});
