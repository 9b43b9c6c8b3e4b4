import { z } from 'zod';
import type { Registry } from '../../../domain/registry.ts';
import { certificateId, normalizeKey } from '../../../domain/ids.ts';
import { calendarDate, controlCharacterProblem, countySlug, taxYear, text } from '../../params/common.ts';
import { unknownMessage } from '../../params/issues.ts';
import { paramMessage } from '../../params/messages.ts';

/**
 * One line of POST /portfolios/{id}/positions, read on its own: a bad line is reported by its
 * number and the others are still added (docs/portfolios.md), so a line's problems never fail
 * the request. Pure: the county registry and Florida's calendar day are arguments.
 */

const noControl = (value: string, ctx: z.RefinementCtx) => {
  const problem = controlCharacterProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

/** The id form services/domain/ids.ts makes: cert_ and 20 lowercase hex digits. */
export const CERTIFICATE_ID = /^cert_[0-9a-f]{20}$/;

const AMOUNT = 'must be an amount in dollars above 0 and at most 1,000,000,000, with at most 2 decimals, such as 1500 or 1500.25';

export const PositionLine = z
  .strictObject({
    certificate_id: z
      .string()
      .regex(CERTIFICATE_ID, 'must be a certificate id: cert_ and 20 hex digits, as GET /api/v1/certificates answers it')
      .optional()
      .describe('The certificate, by its id (cert_<20 hex digits>). Give it, or county, certificate_number and tax_year.'),
    county: countySlug.optional().describe("The certificate's county, by slug (e.g. miami-dade), with certificate_number and tax_year."),
    certificate_number: text(40)
      .superRefine(noControl)
      .optional()
      .describe('The certificate number as the county writes it; punctuation and case do not matter (12-34 is 1234).'),
    tax_year: taxYear.optional().describe('The tax year the certificate was issued for.'),
    acquired_on: calendarDate.nullable().optional().describe("The day you acquired it, YYYY-MM-DD; not after today's date in Florida."),
    acquired_amount: z
      .number(AMOUNT)
      .gt(0, AMOUNT)
      .max(1_000_000_000, AMOUNT)
      .nullable()
      .optional()
      .describe('What you paid, in dollars (at most 2 decimals); left out or null means the face amount.'),
    note: text(500).superRefine(noControl).nullable().optional().describe('A note of yours, at most 500 characters.'),
  })
  .meta({
    examples: [
      { county: 'lee', certificate_number: '2023-004512', tax_year: 2023, acquired_on: '2024-06-01', acquired_amount: 1850.4 },
      { certificate_id: 'cert_5b0e8d7c2a914f6e3d1a', note: 'bought at the 2024 sale' },
    ],
  });
export type PositionLine = z.infer<typeof PositionLine>;

const FIELDS = Object.keys(PositionLine.shape);

export type LineErrorCode = 'invalid' | 'unknown_county' | 'duplicate' | 'unknown_certificate';

/** Why one line was not added: a code to branch on, the field at fault, and what to send instead. */
export interface LineError {
  code: LineErrorCode;
  message: string;
  /** The line's field at fault; "line" when the line as a whole is. */
  field: string;
}

/** A line read: the certificate (by id, or by county, number and year with the id they make) and what the client adds to it. */
export interface ReadLine {
  certificate_id: string;
  /** Absent when the line named the certificate by id: the engine's document gives them. */
  key?: { county_slug: string; certificate_number: string; tax_year: number };
  acquired_on: string | null;
  acquired_amount_cents: number | null;
  note: string | null;
}

export type LineReading = { ok: true; line: ReadLine } | { ok: false; error: LineError };

const invalid = (field: string, message: string): LineReading => ({ ok: false, error: { code: 'invalid', field, message } });

/**
 * Reads one line. `today` is Florida's calendar day (services/domain/florida-today.ts): a
 * certificate is bought at a Florida sale, so "not in the future" is judged on Florida's date.
 * The first problem of a line is its report.
 */
export function readPositionLine(input: unknown, registry: Pick<Registry, 'county'>, today: string): LineReading {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    return invalid('line', 'must be an object such as {"county": "lee", "certificate_number": "2023-004512", "tax_year": 2023}');
  const parsed = PositionLine.safeParse(input, { error: paramMessage });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') return invalid(issue.keys[0]!, unknownMessage(issue.keys[0]!, FIELDS));
    return invalid(issue.path.length > 0 ? String(issue.path[0]) : 'line', issue.message);
  }
  const v = parsed.data;
  const byKey = v.county !== undefined || v.certificate_number !== undefined || v.tax_year !== undefined;
  if (v.certificate_id !== undefined && byKey)
    return invalid('certificate_id', 'give certificate_id, or county, certificate_number and tax_year, not both');
  if (v.acquired_on != null && v.acquired_on > today) return invalid('acquired_on', `must not be after today's date in Florida (${today})`);
  let cents: number | null = null;
  if (v.acquired_amount != null) {
    cents = Math.round(v.acquired_amount * 100);
    // A JSON number with 2 decimals is within float noise of whole cents; 1500.255 is not.
    if (Math.abs(v.acquired_amount * 100 - cents) > 1e-6) return invalid('acquired_amount', AMOUNT);
  }
  const extra = { acquired_on: v.acquired_on ?? null, acquired_amount_cents: cents, note: v.note ?? null };
  if (v.certificate_id !== undefined) return { ok: true, line: { certificate_id: v.certificate_id, ...extra } };

  for (const field of ['county', 'certificate_number', 'tax_year'] as const)
    if (v[field] === undefined) return invalid(field, 'is required (or give certificate_id alone)');
  const county = v.county!;
  if (registry.county(county) === undefined)
    return {
      ok: false,
      error: {
        code: 'unknown_county',
        field: 'county',
        message: `unknown county slug ${JSON.stringify(county)}; GET /api/v1/counties lists the 67 county slugs`,
      },
    };
  const number = v.certificate_number!;
  if (normalizeKey(number) === '') return invalid('certificate_number', 'must contain a letter or a digit');
  const year = v.tax_year!;
  return {
    ok: true,
    line: {
      certificate_id: certificateId(county, year, number),
      key: { county_slug: county, certificate_number: number, tax_year: year },
      ...extra,
    },
  };
}
