/** Small county facts that the certificate builder, the holder and lands readers and the generator all use. */

/** The name a county uses when it holds its own certificates (struck at the sale): "Alachua County". */
export function countyHolderName(countyName: string): string {
  return `${countyName} County`;
}

/** The parcel page of a parcel id under the configured base URL (PARCEL_BASE_URL). */
export function parcelUrl(baseUrl: string, countySlug: string, parcelId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${countySlug}/${encodeURIComponent(parcelId)}`;
}
