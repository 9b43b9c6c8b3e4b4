import { describe, expect, it } from 'vitest';
import { checkData } from '../../../../services/generator/check-data.ts';
import { generateState, PARCELS_WITHOUT_ROW } from '../../../../services/generator/generate-state.ts';
import { loadRegistry } from '../../../../services/domain/registry.ts';

const registry = loadRegistry();
const make = (seed: number) => generateState({ certificates: 20_000, seed, today: '2026-11-22', registry });

describe('parcel files of a generated set', () => {
  const state = make(5);
  const rows = state.parcelFiles.map((f) => ({ file: f, rows: [...state.parcelRows(f)] }));

  it('has one file per county with certificates, of the latest tax year, each row naming its county, each parcel once', () => {
    expect(state.parcelFiles.map((f) => f.county.slug).sort()).toEqual([...new Set(state.files.map((f) => f.county.slug))].sort());
    for (const { file, rows: list } of rows) {
      expect(list).toHaveLength(file.rows);
      expect(file.assessmentYear).toBe(state.taxYears[state.taxYears.length - 1]);
      expect(new Set(list.map((r) => r.county_number))).toEqual(new Set([file.county.dor]));
      expect(new Set(list.map((r) => r.parcel_id)).size).toBe(list.length);
    }
  });

  it('passes every check with its certificates: in Florida, near the county, one row per certificate parcel but the documented share', () => {
    const report = checkData(
      state.allRecords(),
      state.today,
      rows.flatMap(({ file, rows: list }) => list.map((row) => ({ county: file.county.slug, row }))),
    );
    expect(report.checks.filter((c) => c.bad > 0)).toEqual([]);
    expect(report.checks.some((c) => c.name.startsWith('parcel centroid within'))).toBe(true);
    const covered = report.checks.find((c) => c.name.startsWith("every certificate's parcel"))!;
    const parcels = new Set([...state.allRecords()].map((r) => `${r.county_slug}:${r.parcel_id}`));
    const onRoll = new Set(rows.flatMap(({ file, rows: list }) => list.map((r) => `${file.county.slug}:${r.parcel_id}`)));
    const without = [...parcels].filter((p) => !onRoll.has(p)).length;
    expect(covered.of).toBe(parcels.size);
    // About PARCELS_WITHOUT_ROW of them, never none: the demo shows certificates without a location.
    expect(without).toBeGreaterThan(0);
    expect(without / parcels.size).toBeLessThan(2 * PARCELS_WITHOUT_ROW);
    // Parcels without certificates are on the roll too.
    expect([...onRoll].filter((p) => !parcels.has(p)).length).toBeGreaterThan(0);
  });

  it('is a function of the seed', () => {
    const again = make(5);
    const other = make(6);
    const first = state.parcelFiles[0]!;
    expect([...again.parcelRows(again.parcelFiles[0]!)]).toEqual(rows[0]!.rows);
    expect([...other.parcelRows(other.parcelFiles[0]!)]).not.toEqual([...state.parcelRows(first)]);
  });
});
