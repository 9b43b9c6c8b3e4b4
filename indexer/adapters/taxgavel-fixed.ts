import type { Readable } from 'node:stream';
import { describeCountyRef, describeJobCounty } from '../../services/domain/county-facts.ts';
import { FileRejectedError } from '../errors.ts';
import type { Parsed } from '../../services/formats/money.ts';
import { parseCents } from '../../services/formats/money.ts';
import { D_FIELDS, D_LENGTH, L_LENGTH, L_TEXT, T_LENGTH, TAXGAVEL_STATUS } from '../../services/formats/taxgavel-fixed.ts';
import { FieldReader, parseYear, problemRow, statusWords, unreadable } from './fields.ts';
import { readLines } from './read-lines.ts';
import { MAX_RECORD_CHARS, recordTooLong } from './record-limit.ts';
import type { Adapted, FormatAdapter, RawRow, ReadContext } from './types.ts';

/** Reads the layout services/formats/taxgavel-fixed.ts describes (the generator's writer shares it). */
const WORDS = statusWords(TAXGAVEL_STATUS);
const L_ENDINGS: Readonly<Record<string, string>> = { C: '', N: '\n', R: '\r\n', E: '' };

function parseRate(text: string): Parsed<number> {
  return /^\d{5}$/.test(text) ? { ok: true, value: Number(text) / 100 } : { ok: false, reason: 'is not a rate in hundredths of a percent' };
}

function detailFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, start, width] of D_FIELDS) fields[name] = text.slice(start - 1, start - 1 + width);
  return fields;
}

const describeLine = (n: number, text: string) =>
  `line ${n} is ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text)} (${text.length} characters)`;

async function* rows(source: Readable, ctx: ReadContext): AsyncGenerator<RawRow> {
  let pending: {
    line: number;
    raw: string[];
    /** Characters of raw joined with line breaks. */
    length: number;
    fields: Record<string, string>;
    legal: string;
    legalState: 'none' | 'open' | 'closed';
  } | null = null;
  let problem: string | null = null;
  let details = 0;
  let trailer: { line: number; dor: string; count: string } | null = null;
  let first = true;

  const flush = (): RawRow | null => {
    if (pending === null) return null;
    if (pending.legalState === 'open') problem ??= "legal description has no closing 'E' record";
    const fields = { ...pending.fields, legal: pending.legal };
    const raw = pending.raw.join('\n');
    const row = problem === null ? { line: pending.line, raw, fields } : problemRow(pending.line, raw, fields, problem);
    pending = null;
    problem = null;
    return row;
  };

  for await (const { line, text, terminated } of readLines(source, 'taxgavel-fixed')) {
    if (text.trim() === '') continue;
    const type = text[0];
    if (first) {
      first = false;
      const fits = (type === 'D' && text.length === D_LENGTH) || (type === 'T' && text.length === T_LENGTH);
      if (!fits)
        throw new FileRejectedError(
          'unknown_format',
          `expected taxgavel-fixed records ('D' lines of ${D_LENGTH} characters, 'L' of ${L_LENGTH}, a 'T' trailer of ${T_LENGTH}) but ${describeLine(line, text)}`,
        );
    }
    if (!terminated)
      throw new FileRejectedError('truncated_file', `taxgavel-fixed file ends without a line break at line ${line}: it was cut off`);
    if (trailer !== null)
      throw new FileRejectedError('truncated_file', `taxgavel-fixed file has records after its trailer (line ${trailer.line})`);

    if (type === 'L' && pending !== null) {
      pending.raw.push(text);
      // A D record and its L records are one record: capped like a line, or a file of
      // endless L records would hold them all in memory.
      pending.length += text.length + 1;
      if (pending.length > MAX_RECORD_CHARS) throw recordTooLong('taxgavel-fixed', pending.line, "'D' record with its 'L' records");
      const len = Number(text.slice(1, 3));
      const ending = L_ENDINGS[text[3] ?? ''];
      if (
        text.length !== L_LENGTH ||
        !/^\d\d$/.test(text.slice(1, 3)) ||
        len > L_TEXT ||
        ending === undefined ||
        pending.legalState === 'closed'
      )
        problem ??= `legal description record at ${describeLine(line, text)}`;
      else {
        pending.legal += text.slice(4, 4 + len) + ending;
        pending.legalState = text[3] === 'E' ? 'closed' : 'open';
      }
      continue;
    }
    const row = flush();
    if (row !== null) yield row;
    if (type === 'T') {
      trailer = { line, dor: text.slice(1, 3), count: text.slice(7, 16) };
      if (text.length !== T_LENGTH)
        throw new FileRejectedError('truncated_file', `taxgavel-fixed trailer at ${describeLine(line, text)}, expected ${T_LENGTH}`);
      if (trailer.dor !== ctx.county.dor)
        throw new FileRejectedError(
          'wrong_county',
          `taxgavel-fixed trailer names county ${describeCountyRef(trailer.dor, ctx.counties)} but the job is for ${describeJobCounty(ctx.county)}, revenue county ${Number(ctx.county.dor)}`,
        );
      continue;
    }
    details++;
    pending = { line, raw: [text], length: text.length, fields: type === 'D' ? detailFields(text) : {}, legal: '', legalState: 'none' };
    if (type !== 'D') problem = `unknown record type at ${describeLine(line, text)}`;
    else if (text.length !== D_LENGTH) problem = `${describeLine(line, text)}, expected ${D_LENGTH}`;
  }
  const row = flush();
  if (row !== null) yield row;
  if (first) throw new FileRejectedError('empty_file', 'taxgavel-fixed file is empty');
  if (trailer === null) throw new FileRejectedError('truncated_file', "taxgavel-fixed file has no 'T' trailer record: it was cut off");
  if (!/^\d{9}$/.test(trailer.count) || Number(trailer.count) !== details)
    throw new FileRejectedError(
      'truncated_file',
      `taxgavel-fixed trailer says ${JSON.stringify(trailer.count)} detail records but the file has ${details}`,
    );
  if (details === 0) throw new FileRejectedError('empty_file', 'taxgavel-fixed file has a trailer but no detail records');
}

export const taxgavelFixed: FormatAdapter = {
  format: 'taxgavel-fixed',
  rows,

  toInput(row: RawRow): Adapted {
    if (row.problem !== undefined) return unreadable(row.problem);
    const f = new FieldReader(row.fields);
    const input = {
      county_ref: f.text('county'),
      certificate_number: f.text('certificate'),
      parcel_id: f.text('parcel'),
      tax_year: f.parse('tax_year', 'year', parseYear),
      status: f.status('status', WORDS),
      face_amount: f.parse('face_amount', 'face', parseCents),
      delinquent_amount: f.parse('delinquent_amount', 'delinquent', parseCents),
      interest_rate: f.parse('interest_rate', 'rate', parseRate),
      sale_date: f.date('sale_date', 'sale_date', 'YYYYMMDD'),
      holder_name: f.text('holder'),
      struck_to_county: f.flag('struck_to_county', 'struck', 'Y', 'N'),
      redeemed: f.flag('redeemed', 'redeemed', 'Y', 'N'),
      redeemed_date: f.date('redeemed_date', 'redeemed_date', 'YYYYMMDD'),
      redemption_amount: f.parse('redemption_amount', 'redeemed_amount', parseCents),
      tax_deed_application_date: f.date('tax_deed_application_date', 'tda_date', 'YYYYMMDD'),
      owner_name: f.text('owner'),
      site_address_full: f.text('address'),
      legal_description: f.text('legal'),
      batch_number: f.text('batch'),
    };
    return { input, reasons: f.reasons };
  },
};
