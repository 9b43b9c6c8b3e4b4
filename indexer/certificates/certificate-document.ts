import { type HolderAliases, type HolderGroup, holderGroup } from '../../services/domain/holder-groups.ts';
import { idOrder } from '../../services/domain/ids.ts';
import type { CertificateRecord } from '../../services/domain/records.ts';
import type { HolderGroups } from '../holder-memory.ts';
import type { Built } from '../load/two-pass-load.ts';

/**
 * What the certificates index stores: the canonical record plus its holder group
 * (services/domain/holder-groups.ts), computed here at ingest so the holder
 * analytics only aggregate, and the id's order twin (services/domain/ids.ts),
 * which deep pages cut on. These fields are index-only: the public certificate row (spec 2.2) never shows them.
 */
export type CertificateDocument = CertificateRecord & HolderGroup & { id_order: number };

export function certificateDocument(record: CertificateRecord, aliases: HolderAliases): CertificateDocument {
  return { ...record, ...holderGroup(record, aliases), id_order: idOrder(record.id) };
}

/**
 * A built record as its document; refused rows stay refused. The index-only fields are added
 * to the record itself (built for this row alone by the schema's parse), in the order
 * certificateDocument gives them, instead of copying every field into a new object per row.
 */
export function withIndexFields(built: Built<CertificateRecord>, groupOf: HolderGroups): Built<CertificateDocument> {
  if (!built.ok) return built;
  const group = groupOf(built.record);
  const doc = built.record as CertificateDocument;
  doc.holder_group_id = group.holder_group_id;
  doc.holder_group_name = group.holder_group_name;
  doc.county_held = group.county_held;
  doc.id_order = idOrder(doc.id);
  return built as Built<CertificateDocument>;
}
