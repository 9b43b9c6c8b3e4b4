import type { Readable } from 'node:stream';
import { FieldReader, parseYear, ROW_PROBLEM } from '../adapters/fields.ts';
import { readCsv } from '../adapters/read-csv.ts';
import type { RawRow } from '../adapters/types.ts';
import { countyHolderName } from '../../services/domain/county-facts.ts';
import { holderId, normalizeHolderName } from '../../services/domain/ids.ts';
import { type Parsed, parseDollars } from '../normalize/money.ts';
import { HolderRecord } from '../../services/domain/records.ts';
import type { Registry } from '../../services/domain/registry.ts';
import type { DatasetBuilt } from '../two-pass-load.ts';

/**
 * holders-csv: a holder list supplied whole (one row per holder), for when
 * holder data arrives from outside instead of being derived from certificates.
 * - Comma CSV with the header below, LF or CRLF; fields quoted when they hold a
 *   comma, quote or line break. A final line break is not promised, so only an
 *   unclosed quote or a short last row mark a cut-off file.
 * - outstanding_face_amount in dollars ("1234.56" or "$1,234.56").
 * - counties: county slugs separated by semicolons ("alachua;miami-dade").
 */
export const HOLDER_FORMAT = 'holders-csv';
export const HOLDER_HEADER = [
  'holder_name',
  'certificate_count',
  'outstanding_face_amount',
  'counties',
  'first_seen_tax_year',
  'last_seen_tax_year',
] as const;

/** What a row says, in canonical units, not yet checked against the rest of the record. */
export interface HolderInput {
  holder_name: string | null;
  certificate_count: number | null;
  outstanding_face_amount: number | null;
  counties: string[] | null;
  first_seen_tax_year: number | null;
  last_seen_tax_year: number | null;
}

export interface HolderAdapted {
  input: HolderInput;
  reasons: string[];
}

export interface HolderBuildContext {
  /** Every known county slug. */
  countySlugs: ReadonlySet<string>;
  /** normalizeHolderName of each county's own name ("alachua county"): not a holder. */
  countyHolderNames: ReadonlySet<string>;
  /** ISO timestamp stamped on every record of one load. */
  updatedAt: string;
}

export function holderBuildContext(registry: Registry, updatedAt: string): HolderBuildContext {
  return {
    countySlugs: new Set(registry.counties.map((c) => c.slug)),
    countyHolderNames: new Set(registry.counties.map((c) => normalizeHolderName(countyHolderName(c.name)))),
    updatedAt,
  };
}

function parseCount(text: string): Parsed<number> {
  return /^\d{1,9}$/.test(text) ? { ok: true, value: Number(text) } : { ok: false, reason: 'is not a whole number' };
}

function parseSlugs(text: string): Parsed<string[]> {
  const slugs = text
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return slugs.length > 0 ? { ok: true, value: slugs } : { ok: false, reason: 'lists no county' };
}

export function readHolderRows(source: Readable): AsyncIterable<RawRow> {
  return readCsv(source, { format: HOLDER_FORMAT, delimiter: ',', header: HOLDER_HEADER, requireFinalNewline: false });
}

export function toHolderInput(row: RawRow): HolderAdapted {
  const problem = row.fields[ROW_PROBLEM];
  const empty: HolderInput = {
    holder_name: null,
    certificate_count: null,
    outstanding_face_amount: null,
    counties: null,
    first_seen_tax_year: null,
    last_seen_tax_year: null,
  };
  if (problem !== undefined) return { input: empty, reasons: [`row: ${problem}`] };
  const f = new FieldReader(row.fields);
  const input: HolderInput = {
    holder_name: f.text('holder_name'),
    certificate_count: f.parse('certificate_count', 'certificate_count', parseCount),
    outstanding_face_amount: f.parse('outstanding_face_amount', 'outstanding_face_amount', parseDollars),
    counties: f.parse('counties', 'counties', parseSlugs),
    first_seen_tax_year: f.parse('first_seen_tax_year', 'first_seen_tax_year', parseYear),
    last_seen_tax_year: f.parse('last_seen_tax_year', 'last_seen_tax_year', parseYear),
  };
  return { input, reasons: f.reasons };
}

/** An adapted row -> a holder, or every reason it cannot be one. */
export function buildHolder(adapted: HolderAdapted, ctx: HolderBuildContext): DatasetBuilt<HolderRecord> {
  const { input } = adapted;
  const reasons = [...adapted.reasons];
  const need = (name: keyof HolderInput) => {
    if (input[name] === null && !adapted.reasons.some((r) => r.startsWith(`${name}:`) || r.startsWith('row:')))
      reasons.push(`${name}: required`);
  };
  for (const key of HOLDER_HEADER) need(key);

  const name = input.holder_name;
  const normalized = name === null ? '' : normalizeHolderName(name);
  if (name !== null && normalized === '') reasons.push(`holder_name: ${JSON.stringify(name)} has no letters or digits`);
  if (ctx.countyHolderNames.has(normalized))
    reasons.push(`holder_name: ${JSON.stringify(name)} is a county; county-held certificates have no holder record`);
  const counties = [...new Set(input.counties ?? [])].sort();
  for (const slug of counties)
    if (!ctx.countySlugs.has(slug)) reasons.push(`counties: ${JSON.stringify(slug)} is not a county slug`);
  const { first_seen_tax_year: first, last_seen_tax_year: last } = input;
  if (first !== null && last !== null && last < first)
    reasons.push(`last_seen_tax_year: ${last} is before first_seen_tax_year ${first}`);
  if (reasons.length > 0 || name === null) return { ok: false, reasons };

  const parsed = HolderRecord.safeParse({
    id: holderId(name),
    name,
    normalized_name: normalized,
    certificate_count: input.certificate_count,
    outstanding_face_amount: input.outstanding_face_amount,
    counties,
    first_seen_tax_year: first,
    last_seen_tax_year: last,
    updated_at: ctx.updatedAt,
  });
  if (parsed.success) return { ok: true, record: parsed.data };
  return { ok: false, reasons: parsed.error.issues.map((i) => `${i.path.join('.') || 'row'}: ${i.message}`) };
}
