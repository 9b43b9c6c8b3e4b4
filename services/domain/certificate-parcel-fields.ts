import { ownerType } from './owner-type.ts';
import { type CertificateParcelFields, type ParcelFacts, parcelDocumentFields } from './parcel-facts.ts';
import { parseSitusCityZip } from './situs-address.ts';

/** What of a certificate the parcel join reads. */
export interface CertificateParcelKeys {
  owner_name?: string | null;
  site_address_full?: string | null;
}

/**
 * The index-only parcel fields of one certificate document: its owner type always; the facts of
 * its parcel row when it has one (location, value, land, use, homestead, year, roll address, and
 * the roll's city and ZIP); else the city and ZIP its own situs address names, and no location.
 * Certificate ingest and the parcel file's load both write exactly this, so either order of the
 * two files ends with the same document.
 */
export function certificateParcelFields(c: CertificateParcelKeys, parcel: ParcelFacts | undefined): CertificateParcelFields {
  const owner_type = ownerType(c.owner_name);
  if (parcel) return { owner_type, ...parcelDocumentFields(parcel) };
  return { owner_type, ...parseSitusCityZip(c.site_address_full) };
}
