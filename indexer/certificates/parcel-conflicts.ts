import type { RowProblem } from '../adapters/types.ts';
import type { IndexedPair } from './read-indexed.ts';

/**
 * A row that would change the parcel of a certificate already in the index is a conflict, not
 * an update: loading a generated set over the demo set replaced thousands of
 * certificates whose county, tax year and number matched but whose parcel differed, and the
 * sale summaries then blended the two sets. Such rows are quarantined naming both parcels; the
 * indexed certificate stays as it was. The index is read once for this check and the change
 * feed together (read-indexed.ts; certificate-feed.ts runs both).
 */

/** The problem a conflicting row is quarantined with: both parcels, and what was kept. */
export function parcelConflict(certificateNumber: string, taxYear: number, indexed: string, incoming: string): RowProblem {
  return {
    field: 'parcel_id',
    problem: `certificate ${certificateNumber} of tax year ${taxYear} is indexed for parcel ${indexed}; this row names parcel ${incoming}. Not replaced: a certificate never changes parcel (another data set loaded over this one?)`,
  };
}

/** The conflict of one certificate of the file with its indexed version, if its parcel differs. */
export function parcelConflictOf(pair: IndexedPair, taxYear: number): RowProblem | undefined {
  const indexed = pair.indexed?.parcel_id;
  if (indexed === undefined || indexed === pair.incoming.parcel_id) return undefined;
  return parcelConflict(pair.incoming.certificate_number, taxYear, indexed, pair.incoming.parcel_id);
}
