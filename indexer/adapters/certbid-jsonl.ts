import type { Readable } from 'node:stream';
import { describeCountyRef, describeJobCounty } from '../../services/domain/county-facts.ts';
import { FileRejectedError } from '../errors.ts';
import { parseDollars } from '../../services/formats/money.ts';
import { CERTBID_STATUS, FEED_NAME } from '../../services/formats/certbid-jsonl.ts';
import { FieldReader, parsePercent, parseYear, problemRow, statusWords, unreadable } from './fields.ts';
import { readLines } from './read-lines.ts';
import type { Adapted, FormatAdapter, RawRow, ReadContext } from './types.ts';

/** Reads the layout services/formats/certbid-jsonl.ts describes (the generator's writer shares it). */
const WORDS = statusWords(CERTBID_STATUS);
const TRAILER = /^\{\s*"trailer"\s*:/;

function flatten(obj: Record<string, unknown>, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  // for...in rather than Object.entries: the same keys in the same order (JSON.parse makes own,
  // enumerable properties only), without an array of pairs per row for the collector.
  for (const k in obj) {
    const v = obj[k];
    const key = prefix + k;
    if (v === null || v === undefined) out[key] = '';
    else if (typeof v === 'string') out[key] = v;
    else if (typeof v === 'object' && !Array.isArray(v)) flatten(v as Record<string, unknown>, `${key}.`, out);
    else out[key] = JSON.stringify(v);
  }
  return out;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Rows nest two levels (redemption {date, amount}). JSON.parse takes any depth, but
 * flatten and JSON.stringify recurse, so a row nested 20,000 deep overflowed the
 * stack: a RangeError that failed the file and the queue retried it three times
 * (a bad row should cost one row, not the file). Such a row is refused on its own,
 * like any unreadable row.
 */
export const MAX_ROW_DEPTH = 8;

/**
 * Walks with a stack of its own, so the check itself cannot overflow. Only objects go on the
 * stack: a row's twenty-odd scalars made as many pairs per row for the collector.
 */
function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[object, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (depth >= max) return true;
    for (const k in v) {
      const child: unknown = (v as Record<string, unknown>)[k];
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 120)}...` : s);

async function* rows(source: Readable, ctx: ReadContext): AsyncGenerator<RawRow> {
  let header: Record<string, unknown> | null = null;
  let trailer: { line: number; count: unknown } | null = null;
  let count = 0;
  for await (const { line, text, terminated } of readLines(source, 'certbid-jsonl')) {
    if (text.trim() === '') continue;
    if (!terminated)
      throw new FileRejectedError('truncated_file', `certbid-jsonl feed ends without a line break at line ${line}: it was cut off`);
    if (trailer !== null)
      throw new FileRejectedError('truncated_file', `certbid-jsonl feed has lines after its trailer (line ${trailer.line})`);
    if (header === null) {
      header = parseObject(text);
      if (header === null || header.feed !== FEED_NAME)
        throw new FileRejectedError(
          'unknown_format',
          `expected a certbid-jsonl header line {"feed":"${FEED_NAME}",...} but found ${JSON.stringify(clip(text))}`,
        );
      if (String(header.county).toLowerCase() !== ctx.county.slug)
        throw new FileRejectedError(
          'wrong_county',
          `certbid-jsonl header names county ${describeCountyRef(String(header.county), ctx.counties)} but the job is for ${describeJobCounty(ctx.county)}`,
        );
      continue;
    }
    if (TRAILER.test(text)) {
      trailer = { line, count: parseObject(text)?.count };
      continue;
    }
    count++;
    const obj = parseObject(text);
    if (obj === null) yield problemRow(line, text, {}, 'is not a JSON object');
    else if (nestsDeeperThan(obj, MAX_ROW_DEPTH)) yield problemRow(line, text, {}, `nests deeper than ${MAX_ROW_DEPTH} levels`);
    else yield { line, raw: text, fields: flatten(obj) };
  }
  if (header === null) throw new FileRejectedError('empty_file', 'certbid-jsonl feed is empty: expected a header line');
  if (trailer === null)
    throw new FileRejectedError('truncated_file', 'certbid-jsonl feed has no {"trailer":true,"count":N} line: it was cut off');
  if (trailer.count !== count)
    throw new FileRejectedError(
      'truncated_file',
      `certbid-jsonl trailer says ${JSON.stringify(trailer.count)} certificates but the feed has ${count}`,
    );
  if (count === 0) throw new FileRejectedError('empty_file', 'certbid-jsonl feed has a header but no certificates');
}

export const certbidJsonl: FormatAdapter = {
  format: 'certbid-jsonl',
  rows,

  toInput(row: RawRow): Adapted {
    if (row.problem !== undefined) return unreadable(row.problem);
    const f = new FieldReader(row.fields);
    const input = {
      county_ref: null,
      certificate_number: f.text('certificateNumber'),
      parcel_id: f.text('parcelId'),
      tax_year: f.parse('tax_year', 'taxYear', parseYear),
      status: f.status('status', WORDS),
      face_amount: f.parse('face_amount', 'faceAmount', parseDollars),
      delinquent_amount: f.parse('delinquent_amount', 'delinquentAmount', parseDollars),
      interest_rate: f.parse('interest_rate', 'interestRate', parsePercent),
      sale_date: f.date('sale_date', 'saleDate', 'YYYY-MM-DD'),
      holder_name: f.text('holderName'),
      struck_to_county: f.flag('struck_to_county', 'struckToCounty', 'true', 'false'),
      redeemed: f.text('redemption.date') !== null || f.text('redemption.amount') !== null,
      redeemed_date: f.date('redeemed_date', 'redemption.date', 'YYYY-MM-DD'),
      redemption_amount: f.parse('redemption_amount', 'redemption.amount', parseDollars),
      tax_deed_application_date: f.date('tax_deed_application_date', 'taxDeedApplicationDate', 'YYYY-MM-DD'),
      owner_name: f.text('ownerName'),
      site_address_full: f.text('siteAddress'),
      legal_description: f.text('legalDescription'),
      batch_number: f.text('batchNumber'),
    };
    return { input, reasons: f.reasons };
  },
};
