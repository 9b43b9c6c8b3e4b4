import type { z } from 'zod';
import { type CertificateParcelFields, PARCEL_DOCUMENT_FIELDS, ParcelFacts, parcelFactsOfDocument } from '../../../domain/parcel-facts.ts';
import type { LatLon } from '../../params/geo.ts';
import { mapCertificate } from './map-row.ts';
import type { CertificateExpansion } from './params.ts';
import { CERTIFICATE_COLUMNS, CERTIFICATE_SOURCE, type CertificateDocument, CertificateRow } from '../../../domain/certificate-row.ts';

/**
 * A certificate row as a request views it: the spec's row, plus `parcel` with expand=parcel,
 * plus the parcel centroid a GeoJSON answer draws (never a field of the row). The reads fetch
 * only the stored fields the view needs.
 */

export const ExpandedCertificateRow = CertificateRow.extend({
  parcel: ParcelFacts.nullable()
    .optional()
    .describe("Only with expand=parcel: the parcel roll facts of the certificate's parcel, or null when it has no parcel row."),
});
export type ExpandedCertificateRow = z.infer<typeof ExpandedCertificateRow>;

export interface CertificateViewOptions {
  expand?: readonly CertificateExpansion[];
  /** A GeoJSON answer: the location is fetched for the geometry. */
  geometry?: boolean;
}

/** A row and where its parcel is (null without a location). */
export interface ViewedRow {
  row: ExpandedCertificateRow;
  point: LatLon | null;
}

type ViewedDocument = CertificateDocument & Partial<CertificateParcelFields>;

export function viewSource(view: CertificateViewOptions): string[] {
  const parcel = view.expand?.includes('parcel') ?? false;
  return [...CERTIFICATE_SOURCE, ...(parcel ? PARCEL_DOCUMENT_FIELDS : view.geometry ? ['location'] : [])];
}

export function viewRow(doc: ViewedDocument, parcelBaseUrl: string, view: CertificateViewOptions): ViewedRow {
  const row: ExpandedCertificateRow = mapCertificate(doc, parcelBaseUrl);
  if (view.expand?.includes('parcel')) row.parcel = parcelFactsOfDocument(doc);
  const location = doc.location;
  return { row, point: location ? { lat: location.lat, lon: location.lon } : null };
}

/** The parcel object's fields as CSV columns (parcel_<field>), after the row's. */
export const PARCEL_COLUMNS = Object.keys(ParcelFacts.shape).map((f) => `parcel_${f}`);

export function csvColumns(expand: readonly CertificateExpansion[] | undefined): string[] {
  return [...CERTIFICATE_COLUMNS, ...(expand?.includes('parcel') ? PARCEL_COLUMNS : [])];
}

/** A row as one flat CSV record: the parcel's fields as parcel_<field> cells (empty without a parcel row). */
export function csvRecord(row: ExpandedCertificateRow): Record<string, unknown> {
  const { parcel, ...rest } = row;
  if (parcel === undefined) return rest;
  const flat: Record<string, unknown> = { ...rest };
  for (const key of Object.keys(ParcelFacts.shape)) flat[`parcel_${key}`] = parcel ? parcel[key as keyof ParcelFacts] : null;
  return flat;
}
