import { describe, expect, it } from 'vitest';
import {
  aliasName,
  CONTROL_DATASETS,
  controlName,
  DATASETS,
  datasetOfControl,
  FILE_DATASETS,
  physicalName,
  physicalPattern,
  routeName,
} from '../../../../services/domain/datasets.ts';

describe('the dataset table', () => {
  it('lists the five datasets in one order, and the four that files are loaded into', () => {
    expect(DATASETS).toEqual(['certificates', 'sales', 'holders', 'lands-available', 'parcels']);
    expect(CONTROL_DATASETS).toEqual(['certificates', 'sales', 'holders', 'lands_available', 'parcels']);
    expect(FILE_DATASETS).toEqual(['certificates', 'holders', 'lands-available', 'parcels']);
  });

  it('derives every spelling of a dataset from its row', () => {
    expect(DATASETS.map((d) => [aliasName('taxcert', d), controlName(d), routeName(d)])).toEqual([
      ['taxcert-certificates', 'certificates', 'certificates'],
      ['taxcert-sales', 'sales', 'certificate-sales'],
      ['taxcert-holders', 'holders', 'holders'],
      ['taxcert-lands-available', 'lands_available', 'lands-available'],
      ['taxcert-parcels', 'parcels', 'parcels'],
    ]);
  });

  it('maps control-plane names back to datasets', () => {
    expect(CONTROL_DATASETS.map(datasetOfControl)).toEqual([...DATASETS]);
  });

  it("matches a prefix's physical indices and not a longer prefix's", () => {
    const name = physicalName('t', 'lands-available', 3, new Date('2026-01-02T03:04:05.678Z'));
    expect(name).toMatch(/^t-lands-available-v3-20260102t030405678z[0-9a-z]{4}$/);
    expect(physicalPattern('t').exec(name)?.slice(1, 3)).toEqual(['lands-available', '3']);
    expect(physicalPattern('t').test(physicalName('t-x', 'sales', 1))).toBe(false);
  });
});
