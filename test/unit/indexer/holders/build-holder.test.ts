import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RawRow } from '../../../../indexer/adapters/types.ts';
import { FileRejectedError } from '../../../../indexer/errors.ts';
import { readHolderRows, toHolderInput } from '../../../../indexer/adapters/holders-csv.ts';
import { describeProblem } from '../../../../indexer/adapters/types.ts';
import { buildHolder, holderBuildContext } from '../../../../indexer/holders/build-holder.ts';
import { holderId } from '../../../../services/domain/ids.ts';
import { loadRegistry } from '../../../../services/domain/registry.ts';

const AT = '2025-01-02T03:04:05.000Z';
const ctx = holderBuildContext(loadRegistry(), AT);
const fixture = (name: string) => new URL(`../../../../fixtures/files/holders/${name}`, import.meta.url);

async function read(name: string): Promise<RawRow[]> {
  const rows: RawRow[] = [];
  for await (const row of readHolderRows(createReadStream(fixture(name)))) rows.push(row);
  return rows;
}

async function rejectionCode(name: string): Promise<string> {
  try {
    await read(name);
  } catch (err) {
    if (err instanceof FileRejectedError) return err.code;
    throw err;
  }
  throw new Error(`${name} was not rejected`);
}

const build = (row: RawRow) => buildHolder(toHolderInput(row), ctx);

describe('holders-csv: good file', () => {
  it('maps each row to canonical inputs', async () => {
    const rows = await read('good.csv');
    expect(rows.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(rows.map((r) => toHolderInput(r).input)).toEqual([
      {
        holder_name: 'Gulf Coast Lien Fund II, LLC',
        certificate_count: 42,
        outstanding_face_amount: 61234.56,
        counties: ['miami-dade', 'alachua'],
        first_seen_tax_year: 2019,
        last_seen_tax_year: 2024,
      },
      {
        holder_name: 'Sunshine Tax Certs Inc.',
        certificate_count: 3,
        outstanding_face_amount: 1500.1,
        counties: ['orange'],
        first_seen_tax_year: 2023,
        last_seen_tax_year: 2023,
      },
      {
        holder_name: 'O\'Brien Capital "Tax" Partners',
        certificate_count: 0,
        outstanding_face_amount: 0,
        counties: ['alachua', 'alachua', 'duval'],
        first_seen_tax_year: 2018,
        last_seen_tax_year: 2021,
      },
    ]);
  });

  it('builds holders with the id certificates use, counties deduplicated and sorted', async () => {
    const rows = await read('good.csv');
    expect(build(rows[0]!)).toEqual({
      ok: true,
      record: {
        id: holderId('Gulf Coast Lien Fund II, LLC'),
        name: 'Gulf Coast Lien Fund II, LLC',
        normalized_name: 'gulf coast lien fund ii llc',
        certificate_count: 42,
        outstanding_face_amount: 61234.56,
        counties: ['alachua', 'miami-dade'],
        first_seen_tax_year: 2019,
        last_seen_tax_year: 2024,
        updated_at: AT,
      },
    });
    expect(build(rows[2]!)).toMatchObject({
      ok: true,
      record: { normalized_name: 'o brien capital tax partners', counties: ['alachua', 'duval'] },
    });
  });
});

describe('holders-csv: bad rows', () => {
  it('gives every reason of each bad row', async () => {
    const rows = await read('bad-rows.csv');
    expect(rows.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(rows.map((r) => build(r)).map((b) => (b.ok ? 'ok' : b.reasons.map(describeProblem)))).toEqual([
      'ok',
      'ok',
      [
        'certificate_count: "x" is not a whole number',
        'outstanding_face_amount: "-$5.00" is negative',
        'counties: "atlantis" is not a county slug',
        'last_seen_tax_year: 2019 is before first_seen_tax_year 2024',
      ],
      ['holder_name: "Alachua County" is a county; county-held certificates have no holder record'],
      ['holder_name: required', 'counties: required', 'first_seen_tax_year: required', 'last_seen_tax_year: required'],
      ['row: has 2 columns, expected 6'],
      // Same holder as line 2 once normalized: valid alone, refused as a repeat by the loader.
      'ok',
    ]);
    const [first, , , , , , last] = rows.map((r) => build(r));
    expect(first?.ok && last?.ok && first.record.id === last.record.id).toBe(true);
  });
});

describe('holders-csv: files that must not load', () => {
  it.each([
    ['empty.csv', 'empty_file'],
    ['header-only.csv', 'empty_file'],
    ['truncated.csv', 'truncated_file'],
    ['other-header.csv', 'unknown_format'],
  ])('%s -> %s', async (name, code) => {
    expect(await rejectionCode(name)).toBe(code);
  });
});
