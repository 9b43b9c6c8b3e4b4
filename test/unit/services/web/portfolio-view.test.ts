import { describe, expect, it } from 'vitest';
import type { PositionRow } from '../../../../services/api/routes/portfolios/position-row.ts';
import type { PortfolioSummary } from '../../../../services/api/routes/portfolios/summary-row.ts';
import { isUploadedFile, readMultipartForm } from '../../../../services/web/multipart-form.ts';
import { dollars, positionView, reportView, summaryView } from '../../../../services/web/portfolio-view.ts';

const registry = { county: (slug: string) => (slug === 'lee' ? ({ name: 'Lee' } as never) : undefined) };

const unresolved: PositionRow = {
  id: 'pos_1',
  origin: 'added',
  certificate_id: 'cert_00000000000000000000',
  county_slug: 'lee',
  certificate_number: 'A-1',
  tax_year: 2024,
  status: 'unresolved',
  certificate: null,
  quote: null,
  next_deadline: null,
  acquired_on: '2024-06-01',
  acquired_amount: 1850.4,
  note: 'mine',
  redeemed_on: null,
  interest_earned: null,
  annualized_yield: null,
};

describe("the portfolio page's words", () => {
  it('writes dollars to the cent and a missing amount as a dash', () => {
    expect(dollars(1850.4)).toBe('1,850.40 USD');
    expect(dollars(0)).toBe('0.00 USD');
    expect(dollars(null)).toBe('—');
  });

  it('writes a position: county by name, status and deadline in words, the followed group marked', () => {
    expect(positionView(unresolved, registry)).toEqual({
      certificate: 'Lee 2024 #A-1',
      certificateId: 'cert_00000000000000000000',
      status: 'not in the data yet',
      deadline: 'None ahead',
      face: '—',
      payoff: '—',
      acquired: '1 June 2024',
      paid: '1,850.40 USD',
      note: 'mine',
      followed: false,
    });
    const due = positionView(
      {
        ...unresolved,
        status: 'tax_deed_applied',
        origin: 'holder_group',
        next_deadline: { kind: 'deed_application_opens', date: '2027-04-01', days_left: 1200 },
      },
      registry,
    );
    expect(due).toMatchObject({ status: 'tax deed applied', deadline: 'Deed application opens 1 April 2027 (1,200 days)', followed: true });
  });

  it('writes a summary: only the statuses held, every deadline window', () => {
    const zero = { deed_application_opens: 0, expires: 0 };
    const summary = {
      portfolio_id: 'pf_1',
      as_of: '2025-06-15',
      positions: 3,
      by_status: {
        available: 0,
        advertised: 0,
        sold: 2,
        redeemed: 0,
        lands_available: 0,
        tax_deed_applied: 0,
        cancelled: 0,
        unresolved: 1,
      },
      unresolved: 1,
      outstanding: { positions: 2, face_amount: 3000, payoff_as_of: 3210.5, interest_accrued: 210.5 },
      redeemed: { positions: 0, face_amount: 0, interest_earned: 0 },
      interest_earned_by_year: [{ year: 2024, positions: 1, interest_earned: 12 }],
      deadlines: {
        within_7_days: zero,
        within_30_days: { deed_application_opens: 1, expires: 0 },
        within_90_days: { deed_application_opens: 2, expires: 1 },
      },
    } as PortfolioSummary;
    const v = summaryView(summary);
    expect(v.asOf).toBe('15 June 2025');
    expect(v.byStatus).toEqual(['sold: 2', 'not in the data yet: 1']);
    expect(v.outstanding).toEqual({ positions: '2', face: '3,000.00 USD', payoff: '3,210.50 USD', interest: '210.50 USD' });
    expect(v.byYear).toEqual([{ year: 2024, positions: '1', interest: '12.00 USD' }]);
    expect(v.deadlines).toEqual([
      { within: '7 days', deed: '0', expires: '0' },
      { within: '30 days', deed: '1', expires: '0' },
      { within: '90 days', deed: '2', expires: '1' },
    ]);
  });

  it("writes a report line by line: the field at fault before the API's reason, none for the line as a whole", () => {
    const v = reportView(
      {
        portfolio_id: 'pf_1',
        created: 1,
        unresolved: 1,
        rejected: 2,
        lines: [
          {
            line: 2,
            status: 'created',
            position: {
              id: 'pos_1',
              portfolio_id: 'pf_1',
              certificate_id: 'cert_00000000000000000000',
              county: 'lee',
              certificate_number: 'A-1',
              tax_year: 2024,
              acquired_on: null,
              acquired_amount: null,
              note: null,
              created_at: '2026-01-01T00:00:00.000Z',
              resolved: false,
            },
          },
          { line: 3, status: 'rejected', error: { code: 'invalid', field: 'tax_year', message: 'must be a tax year' } },
          { line: 5, status: 'rejected', error: { code: 'duplicate', field: 'line', message: 'an earlier line adds it' } },
        ],
      },
      registry,
    );
    expect(v.lines).toEqual([
      {
        line: 2,
        created: true,
        certificate: 'Lee 2024 #A-1',
        text: 'Added; not in the data yet, it resolves once the county publishes it',
      },
      { line: 3, created: false, certificate: '', text: 'tax_year: must be a tax year' },
      { line: 5, created: false, certificate: '', text: 'an earlier line adds it' },
    ]);
  });
});

describe('readMultipartForm', () => {
  const boundary = 'XyZ';
  const body = (parts: string) => new TextEncoder().encode(parts);

  it('reads the fields and the file, bytes as sent', async () => {
    const fields = await readMultipartForm(
      `multipart/form-data; boundary=${boundary}`,
      body(
        `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\ntok\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nlee,1,2023\r\n\r\n--${boundary}--\r\n`,
      ),
    );
    expect(fields?._csrf).toBe('tok');
    const file = fields?.file;
    expect(isUploadedFile(file)).toBe(true);
    if (!isUploadedFile(file)) return;
    expect(file.filename).toBe('a.csv');
    expect(new TextDecoder().decode(file.bytes)).toBe('lee,1,2023\r\n');
    expect(isUploadedFile('text')).toBe(false);
  });

  it('is null for a body that is not multipart as its type says', async () => {
    expect(await readMultipartForm(`multipart/form-data; boundary=${boundary}`, body('garbage'))).toBeNull();
  });
});
