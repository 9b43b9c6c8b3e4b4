import { type HolderAliases, type HolderGroup, holderGroup } from '../../services/domain/holder-groups.ts';
import type { CertificateRecord } from '../../services/domain/records.ts';
import type { Built } from '../load/two-pass-load.ts';

/**
 * What the certificates index stores: the canonical record plus its holder group
 * (issue 18 item 5), computed here at ingest so the holder analytics only aggregate.
 * The group fields are index-only: the public certificate row (spec 2.2) never shows them.
 */
export type CertificateDocument = CertificateRecord & HolderGroup;

export function certificateDocument(record: CertificateRecord, aliases: HolderAliases): CertificateDocument {
  return { ...record, ...holderGroup(record, aliases) };
}

/** A built record as its document; refused rows stay refused. */
export function withHolderGroup(built: Built<CertificateRecord>, aliases: HolderAliases): Built<CertificateDocument> {
  return built.ok ? { ok: true, record: certificateDocument(built.record, aliases) } : built;
}
