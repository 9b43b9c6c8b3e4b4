import { describe, expect, it } from 'vitest';
import { describeCountyRef } from '../../../../services/domain/county-facts.ts';
import { loadRegistry } from '../../../../services/domain/registry.ts';
import { findCounty, resolveCountyArg, suggestCounties } from '../../../../services/cli/county-arg.ts';

// A county is taken as a person writes it: "--county Miami-Dade" and "miami dade" were once
// refused; a wrong-county message said `file names county "16"` where Broward, revenue county 16,
// was meant.
const registry = loadRegistry();

describe('--county', () => {
  it.each([
    ['miami-dade', 'miami-dade'],
    ['Miami-Dade', 'miami-dade'],
    ['miami dade', 'miami-dade'],
    ['MIAMI DADE COUNTY', 'miami-dade'],
    ['St. Johns', 'st-johns'],
    ['saint lucie', 'st-lucie'],
    ['DeSoto', 'desoto'],
    ['de soto', 'desoto'],
    ['12011', 'broward'],
    ['16', 'broward'],
  ])('%j resolves to %s', (input, slug) => {
    expect(findCounty(registry.counties, input)?.slug).toBe(slug);
  });

  it('suggests slugs for a near miss and points to taxcert counties', () => {
    expect(suggestCounties(registry.counties, 'dade')).toEqual(['miami-dade']);
    expect(suggestCounties(registry.counties, 'browrd')).toEqual(['broward']);
    expect(() => resolveCountyArg(registry, 'browrd')).toThrow(
      '--county: unknown county "browrd"; did you mean broward? (taxcert counties lists them)',
    );
    expect(() => resolveCountyArg(registry, 'atlantis')).toThrow('--county: unknown county "atlantis" (taxcert counties lists them)');
  });
});

describe('a county reference in a file', () => {
  it.each([
    ['16', '"16" (Broward, revenue county 16)'],
    ['12011', '"12011" (Broward, FIPS 12011)'],
    ['Broward County', '"Broward County" (Broward)'],
    ['st johns', '"st johns" (St. Johns)'],
    ['99', '"99" (no Florida county has that revenue number)'],
    ['Atlantis', '"Atlantis" (no Florida county by that name)'],
  ])('%j is described as %s', (ref, text) => {
    expect(describeCountyRef(ref, registry.counties)).toBe(text);
  });
});
