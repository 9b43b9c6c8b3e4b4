import { certificateParcelFields } from '../../services/domain/certificate-parcel-fields.ts';
import { type HolderAliases, type HolderGroup, holderGroup } from '../../services/domain/holder-groups.ts';
import { idOrder } from '../../services/domain/ids.ts';
import type { CertificateParcelFields, ParcelFacts } from '../../services/domain/parcel-facts.ts';
import type { CertificateRecord } from '../../services/domain/records.ts';
import type { HolderGroups } from '../holder-memory.ts';
import type { Built } from '../load/two-pass-load.ts';

/**
 * What the certificates index stores: the canonical record plus its holder group
 * (services/domain/holder-groups.ts), computed here at ingest so the holder
 * analytics only aggregate, the id's order twin (services/domain/ids.ts),
 * which deep pages cut on, and its parcel fields (owner type, city and ZIP, and its parcel row's
 * facts and location when it has one: services/domain/certificate-parcel-fields.ts).
 * These fields are index-only: the public certificate row (spec 2.2) never shows them.
 */
export type CertificateDocument = CertificateRecord & HolderGroup & { id_order: number } & CertificateParcelFields;

/** A certificate's parcel row by its normalized parcel id (the county's, read once per job). */
export type ParcelOf = (parcelIdNormalized: string) => ParcelFacts | undefined;

export function certificateDocument(record: CertificateRecord, aliases: HolderAliases, parcelOf?: ParcelOf): CertificateDocument {
  return {
    ...record,
    ...holderGroup(record, aliases),
    id_order: idOrder(record.id),
    ...certificateParcelFields(record, parcelOf?.(record.parcel_id_normalized)),
  };
}

/**
 * A built record as its document; refused rows stay refused. The index-only fields are added
 * to the record itself (built for this row alone by the schema's parse), in the order
 * certificateDocument gives them, instead of copying every field into a new object per row.
 */
export function withIndexFields(built: Built<CertificateRecord>, groupOf: HolderGroups, parcelOf?: ParcelOf): Built<CertificateDocument> {
  if (!built.ok) return built;
  const group = groupOf(built.record);
  const doc = built.record as CertificateDocument;
  doc.holder_group_id = group.holder_group_id;
  doc.holder_group_name = group.holder_group_name;
  doc.county_held = group.county_held;
  doc.id_order = idOrder(doc.id);
  Object.assign(doc, certificateParcelFields(doc, parcelOf?.(doc.parcel_id_normalized)));
  return built as Built<CertificateDocument>;
}
