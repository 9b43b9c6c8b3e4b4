import { describe, expect, it } from 'vitest';
import { readPositionLine } from '../../../../../../services/api/routes/portfolios/position-line.ts';
import { certificateId } from '../../../../../../services/domain/ids.ts';
import { registry } from '../../../../../helpers/registry.ts';

const TODAY = '2026-03-10';
const read = (line: unknown) => readPositionLine(line, registry, TODAY);
const error = (line: unknown) => {
  const r = read(line);
  if (r.ok) throw new Error(`expected a refusal of ${JSON.stringify(line)}`);
  return r.error;
};
const KEY = { county: 'lee', certificate_number: '2023-004512', tax_year: 2023 };

describe('readPositionLine', () => {
  it('reads a certificate by county, number and year into the id ingest gives it', () => {
    const r = read({ ...KEY, county: ' Lee ', acquired_on: '2026-03-10', acquired_amount: 1850.4, note: ' mine ' });
    expect(r).toEqual({
      ok: true,
      line: {
        certificate_id: certificateId('lee', 2023, '2023-004512'),
        key: { county_slug: 'lee', certificate_number: '2023-004512', tax_year: 2023 },
        acquired_on: '2026-03-10',
        acquired_amount_cents: 185040,
        note: 'mine',
      },
    });
    // Punctuation and case of the number do not make another certificate.
    expect(read({ ...KEY, certificate_number: '2023004512' })).toMatchObject({
      line: { certificate_id: certificateId('lee', 2023, '2023-004512') },
    });
  });

  it('reads a certificate by id, with nulls as "not given"', () => {
    expect(read({ certificate_id: 'cert_0123456789abcdef0123', acquired_on: null, acquired_amount: null, note: null })).toEqual({
      ok: true,
      line: { certificate_id: 'cert_0123456789abcdef0123', acquired_on: null, acquired_amount_cents: null, note: null },
    });
  });

  it('turns dollars with 2 decimals into exact cents, and refuses more decimals, zero and negatives', () => {
    for (const [dollars, cents] of [
      [0.29, 29],
      [1500, 150000],
      [1500.25, 150025],
      [19.99, 1999],
      [1_000_000_000, 100_000_000_000],
    ] as const)
      expect(read({ ...KEY, acquired_amount: dollars })).toMatchObject({ ok: true, line: { acquired_amount_cents: cents } });
    for (const amount of [1.005, 0, -5, 1_000_000_000.01, '1500', Number.NaN])
      expect(error({ ...KEY, acquired_amount: amount }), String(amount)).toMatchObject({ code: 'invalid', field: 'acquired_amount' });
  });

  it("refuses an acquisition after Florida's today and a date that is not a calendar day", () => {
    expect(error({ ...KEY, acquired_on: '2026-03-11' })).toEqual({
      code: 'invalid',
      field: 'acquired_on',
      message: "must not be after today's date in Florida (2026-03-10)",
    });
    expect(error({ ...KEY, acquired_on: '2024-02-30' })).toMatchObject({ code: 'invalid', field: 'acquired_on' });
    expect(error({ ...KEY, acquired_on: '03/01/2024' })).toMatchObject({ code: 'invalid', field: 'acquired_on' });
  });

  it('names the field of each problem', () => {
    const cases: [unknown, string, string?][] = [
      [{ certificate_id: 'cert_123' }, 'certificate_id'],
      [{ certificate_id: 'CERT_0123456789ABCDEF0123' }, 'certificate_id'],
      [{ certificate_id: 'cert_0123456789abcdef0123', county: 'lee' }, 'certificate_id'],
      [{ county: 'lee', tax_year: 2023 }, 'certificate_number'],
      [{ certificate_number: '1', tax_year: 2023 }, 'county'],
      [{ county: 'lee', certificate_number: '1' }, 'tax_year'],
      [{ ...KEY, tax_year: 1980 }, 'tax_year'],
      [{ ...KEY, tax_year: '2023' }, 'tax_year'],
      [{ ...KEY, certificate_number: '--' }, 'certificate_number'],
      [{ ...KEY, certificate_number: 'x'.repeat(41) }, 'certificate_number'],
      [{ ...KEY, note: 'x'.repeat(501) }, 'note'],
      [{ ...KEY, note: 'a\u0000b' }, 'note'],
      [{ ...KEY, colour: 'red' }, 'colour'],
      [{}, 'county'],
      ['cert_0123456789abcdef0123', 'line'],
      [null, 'line'],
      [[KEY], 'line'],
    ];
    for (const [line, field] of cases) expect(error(line), JSON.stringify(line)).toMatchObject({ code: 'invalid', field });
    expect(error({ ...KEY, colour: 'red' }).message).toMatch(/^unknown parameter; accepted: certificate_id, county/);
    expect(read({ ...KEY, note: 'x'.repeat(500) }).ok).toBe(true);
  });

  it('refuses a county slug that names no Florida county with its own code', () => {
    expect(error({ ...KEY, county: 'atlantis' })).toEqual({
      code: 'unknown_county',
      field: 'county',
      message: 'unknown county slug "atlantis"; GET /api/v1/counties lists the 67 county slugs',
    });
  });
});
