import { type DateLayout, parseDate } from '../../services/formats/dates.ts';
import type { Parsed } from '../../services/formats/money.ts';
import { type Adapted, type CertificateInput, type RawRow, ROW, type RowProblem } from './types.ts';

/**
 * Shared by every adapter's toInput: reads one field, turns a value it cannot
 * parse into null plus a problem naming the canonical field and the raw text
 * ({ field: 'face_amount', problem: '"$12,3x4" is not a dollar amount' }). A blank
 * field is null with no problem: whether it was required is the builder's call.
 */

/** A row rows() could not split into the format's columns: the problem has its own slot. */
export function problemRow(line: number, raw: string, fields: Record<string, string>, problem: string): RawRow {
  return { line, raw, fields, problem };
}

export function emptyInput(): CertificateInput {
  return {
    county_ref: null,
    certificate_number: null,
    parcel_id: null,
    tax_year: null,
    status: null,
    face_amount: null,
    delinquent_amount: null,
    interest_rate: null,
    sale_date: null,
    holder_name: null,
    struck_to_county: null,
    redeemed: null,
    redeemed_date: null,
    redemption_amount: null,
    tax_deed_application_date: null,
    owner_name: null,
    site_address_full: null,
    legal_description: null,
    batch_number: null,
  };
}

/** The row could not be read at all: every field null, one problem with the whole row. */
export function unreadable(problem: string): Adapted {
  return { input: emptyInput(), reasons: [{ field: ROW, problem }] };
}

const YEAR = /^\d{4}$/;
const PERCENT = /^\d{1,2}(?:\.\d{1,4})?$/;

export function parseYear(text: string): Parsed<number> {
  return YEAR.test(text) ? { ok: true, value: Number(text) } : { ok: false, reason: 'is not a four-digit year' };
}

/** Interest rate in percent ("18", "0.25"); the range is the record schema's to check. */
export function parsePercent(text: string): Parsed<number> {
  return PERCENT.test(text) ? { ok: true, value: Number(text) } : { ok: false, reason: 'is not a percent' };
}

export class FieldReader {
  readonly reasons: RowProblem[] = [];
  constructor(private readonly fields: Record<string, string>) {}

  /** Trimmed text, or null when blank or absent. */
  text(key: string): string | null {
    const v = this.fields[key]?.trim();
    return v ? v : null;
  }

  /** `arg` goes to `parse` beside the text, so a caller needs no closure made per row (a date's layout). */
  parse<T, A = undefined>(name: string, key: string, parse: (text: string, arg: A) => Parsed<T>, arg?: A): T | null {
    const v = this.text(key);
    if (v === null) return null;
    const r = parse(v, arg as A);
    if (r.ok) return r.value;
    return this.refuse(name, v, r.reason);
  }

  date(name: string, key: string, layout: DateLayout): string | null {
    return this.parse(name, key, parseDate, layout);
  }

  /** A yes/no column; `yes`/`no` are the format's own words, compared case-insensitively. */
  flag(name: string, key: string, yes: string, no: string): boolean | null {
    const v = this.text(key);
    if (v === null) return null;
    const u = v.toUpperCase();
    if (u === yes.toUpperCase()) return true;
    if (u === no.toUpperCase()) return false;
    return this.refuse(name, v, `is not ${yes} or ${no}`);
  }

  /** A format's status word -> canonical status (keys of `words` are upper case). */
  status(key: string, words: Readonly<Record<string, string>>): string | null {
    const v = this.text(key);
    if (v === null) return null;
    const s = words[v.toUpperCase()];
    return s === undefined ? this.refuse('status', v, 'is not a known status') : s;
  }

  /** A value that does not parse: null, and the problem naming the field and the text. */
  private refuse(name: string, text: string, reason: string): null {
    this.reasons.push({ field: name, problem: `${JSON.stringify(text)} ${reason}` });
    return null;
  }
}

/** Inverts a canonical -> word map for the parser, upper-casing the words. */
export function statusWords(toWord: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(toWord).map(([status, word]) => [word.toUpperCase(), status]));
}
