import { normalizeHolderName } from '../../services/domain/ids.ts';
import { roundCents } from '../../services/formats/money.ts';
import type { HolderRecord } from '../../services/domain/records.ts';

/** One composite bucket of build-holders-query.ts, as OpenSearch answers it. */
export interface HolderBucket {
  key: { holder_id: string };
  doc_count: number;
  name: { buckets: Array<{ key: string; doc_count: number }> };
  held: { doc_count: number; face: { value: number | null } };
  counties: { buckets: Array<{ key: string; doc_count: number }> };
  first_year: { value: number | null };
  last_year: { value: number | null };
}

/**
 * A holder bucket -> a holder document. Not validated here: the runner parses it
 * with HolderRecord, so a bucket that cannot make a holder is reported, not indexed.
 * The id is the bucket's holder_id, the one its certificates carry, so
 * certificate.holder_id always finds its holder.
 */
export function mapHolder(bucket: HolderBucket, updatedAt: string): HolderRecord {
  const name = bucket.name.buckets[0]?.key ?? '';
  return {
    id: bucket.key.holder_id,
    name,
    normalized_name: normalizeHolderName(name),
    certificate_count: bucket.held.doc_count,
    // The sum of scaled_float values comes back as a double (0.1 + 0.2); money is whole cents.
    outstanding_face_amount: roundCents(bucket.held.face.value ?? 0),
    counties: bucket.counties.buckets.map((b) => b.key).sort(),
    first_seen_tax_year: bucket.first_year.value ?? 0,
    last_seen_tax_year: bucket.last_year.value ?? 0,
    updated_at: updatedAt,
  };
}
