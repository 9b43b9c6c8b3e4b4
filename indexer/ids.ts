import { createHash } from 'node:crypto';

/**
 * Ids come from natural keys, so ingesting the same file twice (or retrying a
 * killed job) writes the same documents instead of new ones.
 */

function digest(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 20);
}

/** Parcel ids and certificate numbers match without punctuation: 12-34-56 equals 123456. */
export function normalizeKey(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** Holder names as people type them: case, punctuation and spacing do not make a new holder. */
export function normalizeHolderName(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function certificateId(countySlug: string, taxYear: number, certificateNumber: string): string {
  return `cert_${digest(`${countySlug}|${taxYear}|${normalizeKey(certificateNumber)}`)}`;
}

export function holderId(holderName: string): string {
  return `hld_${digest(normalizeHolderName(holderName))}`;
}

export function saleId(countySlug: string, taxYear: number): string {
  return `csale_${digest(`${countySlug}|${taxYear}`)}`;
}
