import type { Readable } from 'node:stream';
import type { Parsed } from '../../services/formats/money.ts';
import { PARCELS_FORMAT, PARCELS_HEADER } from '../../services/formats/parcels-csv.ts';
import { FieldReader, parseYear } from './fields.ts';
import { readCsv } from './read-csv.ts';
import { type RawRow, ROW, type RowProblem } from './types.ts';

/** What a row says, parsed but not yet checked against its county. */
export interface ParcelInput {
  county_number: string | null;
  parcel_id: string | null;
  assessment_year: number | null;
  just_value: number | null;
  land_sqft: number | null;
  use_code: string | null;
  homestead: boolean | null;
  situs_address: string | null;
  situs_city: string | null;
  situs_zip: string | null;
  lat: number | null;
  lon: number | null;
}

export interface ParcelAdapted {
  input: ParcelInput;
  reasons: RowProblem[];
}

const EMPTY: ParcelInput = {
  county_number: null,
  parcel_id: null,
  assessment_year: null,
  just_value: null,
  land_sqft: null,
  use_code: null,
  homestead: null,
  situs_address: null,
  situs_city: null,
  situs_zip: null,
  lat: null,
  lon: null,
};

const WHOLE = /^\d{1,15}$/;
const DEGREES = /^-?\d{1,3}(?:\.\d{1,12})?$/;

function parseWhole(text: string): Parsed<number> {
  return WHOLE.test(text) ? { ok: true, value: Number(text) } : { ok: false, reason: 'is not a whole non-negative number' };
}

function parseDegrees(text: string): Parsed<number> {
  return DEGREES.test(text) ? { ok: true, value: Number(text) } : { ok: false, reason: 'is not decimal degrees' };
}

function parsePattern(text: string, rule: { re: RegExp; says: string }): Parsed<string> {
  return rule.re.test(text) ? { ok: true, value: text } : { ok: false, reason: rule.says };
}

const COUNTY_NUMBER = { re: /^\d{1,2}$/, says: 'is not a county number' };
const USE_CODE = { re: /^\d{3}$/, says: 'is not a three-digit use code' };
const ZIP = { re: /^\d{5}$/, says: 'is not a five-digit ZIP code' };

export function readParcelRows(source: Readable): AsyncIterable<RawRow> {
  return readCsv(source, { format: PARCELS_FORMAT, delimiter: ',', header: PARCELS_HEADER, requireFinalNewline: false });
}

export function toParcelInput(row: RawRow): ParcelAdapted {
  if (row.problem !== undefined) return { input: { ...EMPTY }, reasons: [{ field: ROW, problem: row.problem }] };
  const f = new FieldReader(row.fields);
  const input: ParcelInput = {
    county_number: f.parse('county_number', 'county_number', parsePattern, COUNTY_NUMBER),
    parcel_id: f.text('parcel_id'),
    assessment_year: f.parse('assessment_year', 'assessment_year', parseYear),
    just_value: f.parse('just_value', 'just_value', parseWhole),
    land_sqft: f.parse('land_sqft', 'land_sqft', parseWhole),
    use_code: f.parse('use_code', 'use_code', parsePattern, USE_CODE),
    homestead: f.flag('homestead', 'homestead', 'Y', 'N'),
    situs_address: f.text('situs_address'),
    situs_city: f.text('situs_city'),
    situs_zip: f.parse('situs_zip', 'situs_zip', parsePattern, ZIP),
    lat: f.parse('lat', 'lat', parseDegrees),
    lon: f.parse('lon', 'lon', parseDegrees),
  };
  return { input, reasons: f.reasons };
}
