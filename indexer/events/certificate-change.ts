import { changedFields } from '../../services/domain/changed-fields.ts';
import type { CertificateRow } from '../../services/domain/certificate-row.ts';
import type { CertificateStatus } from '../../services/domain/records.ts';
import type { RegistryCounty } from '../../services/domain/registry.ts';
import type { EventInput, EventType } from '../../services/control/feed/events.ts';

/**
 * What one certificate of a file changes in what the API shows, pure: the row as
 * the API renders it now (the indexed document through the one mapper) against the row the
 * file brings. Only public fields count, so a new ingest time, holder group or normalized key
 * is no change. One event per changed certificate, whatever else changed with it.
 */

/** Status moves with an event of their own; any other move is certificate.status_changed. */
const STATUS_EVENTS: Partial<Record<CertificateStatus, EventType>> = {
  redeemed: 'certificate.redeemed',
  tax_deed_applied: 'certificate.tax_deed_applied',
  lands_available: 'certificate.lands_available',
  cancelled: 'certificate.cancelled',
};

/** The event type of a status move to `status`. */
export function statusEventType(status: CertificateStatus): EventType {
  return STATUS_EVENTS[status] ?? 'certificate.status_changed';
}

/**
 * The event of one certificate, or null when nothing public changed. `indexed` undefined: the
 * certificate is new to a county and tax year already loaded (a first load is one
 * certificates.loaded instead). A status move names the event (with every other changed field
 * in previous too); a change of other fields only is certificate.updated.
 */
export function certificateChange(indexed: CertificateRow | undefined, incoming: CertificateRow): EventInput | null {
  const event = (type: EventType, previous: Partial<CertificateRow>): EventInput => ({
    type,
    countySlug: incoming.county_slug,
    data: { object: incoming, previous },
  });
  if (!indexed) return event('certificate.created', {});
  const previous = changedFields(indexed, incoming);
  if (Object.keys(previous).length === 0) return null;
  return event('status' in previous ? statusEventType(incoming.status) : 'certificate.updated', previous);
}

/** The object of certificates.loaded: which county and tax year, and how many certificates are searchable. */
export interface CertificatesLoaded {
  county_slug: string;
  county_name: string;
  tax_year: number;
  count: number;
}

/** The first load of a county and tax year: one event for the whole file, not one per row. */
export function certificatesLoaded(county: Pick<RegistryCounty, 'slug' | 'name'>, taxYear: number, count: number): EventInput {
  const object: CertificatesLoaded = { county_slug: county.slug, county_name: county.name, tax_year: taxYear, count };
  return { type: 'certificates.loaded', countySlug: county.slug, data: { object: { ...object }, previous: {} } };
}
