import type { CertificateDocument } from './certificate-document.ts';

/**
 * A certificate document as the JSON text JSON.stringify makes of it, byte for byte, for the
 * spool (load/spool.ts). JSON.stringify walked each document's 31 properties generically and
 * was pass 1's largest single cost, about 3.2 us a document; with the keys written here as
 * constants in the document's own order (the record schema's, then the index fields
 * withIndexFields adds) only the values are formatted, about 2.4 us (bench on 7,400 documents).
 * The unit test holds DOCUMENT_KEYS to the schema and the text to JSON.stringify's.
 */

/** The document's keys in the order its object has them, which is the order JSON.stringify writes. */
export const DOCUMENT_KEYS = [
  'id', 'certificate_number', 'certificate_number_normalized', 'county_slug', 'county_name', 'parcel_id',
  'parcel_id_normalized', 'tax_year', 'status', 'face_amount', 'delinquent_amount', 'interest_rate', 'sale_date',
  'holder_id', 'holder_name', 'struck_to_county', 'vendor', 'redeemed', 'redeemed_date', 'redemption_amount',
  'tax_deed_application_date', 'owner_name', 'site_address_full', 'legal_description', 'batch_number', 'parcel_url',
  'ingested_at', 'holder_group_id', 'holder_group_name', 'county_held', 'id_order',
] as const;

/** What JSON.stringify escapes in a string: quote, backslash, control characters, and (lone) surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters JSON escapes are the point
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A value of a type no schema field has (undefined, an object): the document goes to JSON.stringify whole. */
class NotScalar extends Error {}

function value(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`;
    case 'number':
      return Number.isFinite(v) ? `${v}` : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      if (v === null) return 'null';
      throw new NotScalar();
  }
}

export function certificateJson(d: CertificateDocument): string {
  try {
    return `{"id":${value(d.id)},"certificate_number":${value(d.certificate_number)},"certificate_number_normalized":${value(d.certificate_number_normalized)},"county_slug":${value(d.county_slug)},"county_name":${value(d.county_name)},"parcel_id":${value(d.parcel_id)},"parcel_id_normalized":${value(d.parcel_id_normalized)},"tax_year":${value(d.tax_year)},"status":${value(d.status)},"face_amount":${value(d.face_amount)},"delinquent_amount":${value(d.delinquent_amount)},"interest_rate":${value(d.interest_rate)},"sale_date":${value(d.sale_date)},"holder_id":${value(d.holder_id)},"holder_name":${value(d.holder_name)},"struck_to_county":${value(d.struck_to_county)},"vendor":${value(d.vendor)},"redeemed":${value(d.redeemed)},"redeemed_date":${value(d.redeemed_date)},"redemption_amount":${value(d.redemption_amount)},"tax_deed_application_date":${value(d.tax_deed_application_date)},"owner_name":${value(d.owner_name)},"site_address_full":${value(d.site_address_full)},"legal_description":${value(d.legal_description)},"batch_number":${value(d.batch_number)},"parcel_url":${value(d.parcel_url)},"ingested_at":${value(d.ingested_at)},"holder_group_id":${value(d.holder_group_id)},"holder_group_name":${value(d.holder_group_name)},"county_held":${value(d.county_held)},"id_order":${value(d.id_order)}}`;
  } catch (err) {
    if (err instanceof NotScalar) return JSON.stringify(d);
    throw err;
  }
}
