import { z } from 'zod';
import { listResponse, objectResponse } from '../../envelope.ts';

/** A portfolio as its client reads it. */
export const PortfolioRow = z
  .object({
    id: z.string().describe('Portfolio id, pf_<id>.'),
    name: z.string().describe('Its name.'),
    follow_holder_group: z
      .string()
      .nullable()
      .describe('The holder group it follows (group_id of GET /api/v1/analytics/holders), or null.'),
    created_at: z.string().describe('When it was created (ISO-8601).'),
    updated_at: z.string().describe('When its name or followed group last changed (ISO-8601).'),
  })
  .strict();
export type PortfolioRow = z.infer<typeof PortfolioRow>;

/** A position as its creation answers it. */
export const PositionRow = z
  .object({
    id: z.string().describe('Position id, pos_<id>.'),
    portfolio_id: z.string().describe('The portfolio holding it.'),
    certificate_id: z
      .string()
      .describe('The certificate, cert_<20 hex digits>: the id GET /api/v1/certificates/{id} answers once it is loaded.'),
    county: z.string().describe("The certificate's county slug."),
    certificate_number: z.string().describe("The certificate number: the loaded certificate's spelling, else as given."),
    tax_year: z.number().int().describe('The tax year it was issued for.'),
    acquired_on: z.string().nullable().describe('The day you acquired it (YYYY-MM-DD), or null.'),
    acquired_amount: z.number().nullable().describe('What you paid, in dollars; null means the face amount.'),
    note: z.string().nullable().describe('Your note, or null.'),
    created_at: z.string().describe('When it was added (ISO-8601).'),
    resolved: z
      .boolean()
      .describe(
        'Whether the certificate was loaded when the position was added. false: it is kept all the same, and resolves once an ingest loads a certificate of that county, number and year.',
      ),
  })
  .strict();
export type PositionRow = z.infer<typeof PositionRow>;

const LineError = z
  .object({
    code: z
      .enum(['invalid', 'unknown_county', 'unknown_certificate', 'duplicate'])
      .describe(
        'invalid: a field is missing or malformed; unknown_county: the county slug names no Florida county; unknown_certificate: no loaded certificate has this certificate_id (give county, certificate_number and tax_year to hold one not loaded yet); duplicate: the portfolio already holds the certificate, or an earlier line of the request adds it.',
      ),
    message: z.string().describe('What is wrong and what to send instead.'),
    field: z.string().describe('The field of the line at fault; "line" when the line as a whole is.'),
  })
  .strict();

const CreatedLine = z
  .object({
    line: z.number().int().describe('The line number: 1 is the first element of positions.'),
    status: z.literal('created'),
    position: PositionRow,
  })
  .strict();
const RejectedLine = z
  .object({
    line: z.number().int().describe('The line number: 1 is the first element of positions.'),
    status: z.literal('rejected'),
    error: LineError,
  })
  .strict();

/** The answer of POST /portfolios/{id}/positions: every line's outcome, in the order sent. */
export const PositionsReport = z
  .object({
    portfolio_id: z.string().describe('The portfolio the lines were added to.'),
    created: z.number().int().describe('Lines added.'),
    unresolved: z.number().int().describe('Of those, lines whose certificate is not loaded yet (resolved: false).'),
    rejected: z.number().int().describe('Lines not added; each says why.'),
    lines: z.array(z.discriminatedUnion('status', [CreatedLine, RejectedLine])).describe('One entry per line sent, in order.'),
  })
  .strict();
export type PositionsReport = z.infer<typeof PositionsReport>;

/** The answers the document names (routes/named-schemas.ts). */
export const PortfolioList = listResponse(PortfolioRow);
export const PortfolioResponse = objectResponse(PortfolioRow);
export const PositionsReportResponse = objectResponse(PositionsReport);
