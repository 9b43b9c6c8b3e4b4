import type { Readable } from 'node:stream';
import type { RegistryCounty } from '../../services/domain/registry.ts';
import type { FileContext } from '../../services/formats/file-context.ts';

/** One row as it stood in the file: kept whole for the quarantine. */
export interface RawRow {
  /** 1-based line number where the row starts (a quoted CSV row may span lines). */
  line: number;
  raw: string;
  fields: Record<string, string>;
  /**
   * Set when rows() could not split the row into the format's columns (or records):
   * the reader then reports it instead of reading fields that are misaligned.
   */
  problem?: string;
}

/**
 * Why a row cannot become a record: the canonical field it concerns (ROW for the
 * row as a whole, INDEX for a document the engine refused) and what is wrong with
 * it. Code decides on `field`, never on the text; describeProblem makes the
 * readable reason the quarantine shows ("face_amount: \"x\" is not a dollar amount").
 */
export interface RowProblem {
  field: string;
  problem: string;
}

/** The field of a problem with the row as a whole (it could not be split, it is repeated). */
export const ROW = 'row';
/** The field of a document OpenSearch refused after it passed validation. */
export const INDEX = 'index';

export function describeProblem(p: RowProblem): string {
  return `${p.field}: ${p.problem}`;
}

/**
 * What an adapter makes of a row: values already in canonical units (dollars,
 * YYYY-MM-DD, percent), not yet checked against each other. A value the adapter
 * could not parse is null and its reason is listed, so one pass reports every
 * problem of the row.
 */
export interface CertificateInput {
  /** The county as the file names it (name, slug, FIPS or DOR number); null when the format has none per row. */
  county_ref: string | null;
  certificate_number: string | null;
  parcel_id: string | null;
  tax_year: number | null;
  status: string | null;
  face_amount: number | null;
  delinquent_amount: number | null;
  interest_rate: number | null;
  sale_date: string | null;
  holder_name: string | null;
  struck_to_county: boolean | null;
  redeemed: boolean | null;
  redeemed_date: string | null;
  redemption_amount: number | null;
  tax_deed_application_date: string | null;
  owner_name: string | null;
  site_address_full: string | null;
  legal_description: string | null;
  batch_number: string | null;
}

export interface Adapted {
  input: CertificateInput;
  reasons: RowProblem[];
}

/** What a reader knows: its job's county and year, and every county, to name the one a wrong-county file points at. */
export interface ReadContext extends FileContext {
  counties: readonly RegistryCounty[];
}

export interface FormatAdapter {
  readonly format: string;
  /**
   * Streams the rows of one file. Throws FileRejectedError for a file that is
   * empty, truncated, not in this format, or (where the file says) for another
   * county. Must hold only one row at a time in memory.
   */
  rows(source: Readable, ctx: ReadContext): AsyncIterable<RawRow>;
  toInput(row: RawRow): Adapted;
}
