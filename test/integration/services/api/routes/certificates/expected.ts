import type { CertificateRecord } from '../../../../../../services/domain/records.ts';

/**
 * What the tests expect, computed from the seed records in plain code (not by the
 * engine): the rows of a filter, in the order of a sort, checked row by row.
 */

type Key = { field: keyof CertificateRecord; order: 'asc' | 'desc' };

const SORTS: Record<string, Key[]> = {
  face_desc: [{ field: 'face_amount', order: 'desc' }],
  face_asc: [{ field: 'face_amount', order: 'asc' }],
  year_newest: [
    { field: 'tax_year', order: 'desc' },
    { field: 'sale_date', order: 'desc' },
  ],
  sale_date_desc: [{ field: 'sale_date', order: 'desc' }],
  sale_newest: [{ field: 'sale_date', order: 'desc' }],
  // Without a query every score is equal: the default order.
  relevance: [{ field: 'sale_date', order: 'desc' }],
};

export function sortedIds(records: CertificateRecord[], sort: string): string[] {
  const keys = [...SORTS[sort]!, { field: 'id', order: 'asc' } as Key];
  return [...records]
    .sort((a, b) => {
      for (const k of keys) {
        const x = a[k.field] as string | number;
        const y = b[k.field] as string | number;
        if (x !== y) return (x < y ? -1 : 1) * (k.order === 'asc' ? 1 : -1);
      }
      return 0;
    })
    .map((r) => r.id);
}

/** The contains key the holder filter compares (written independently of the code under test). */
export function holderKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split('&')
    .join('and')
    .replace(/[^a-z0-9]/g, '');
}
