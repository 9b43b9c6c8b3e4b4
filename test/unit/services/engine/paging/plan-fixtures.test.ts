import { describe, expect, it } from 'vitest';
import { dslFixtures, FIXTURE_DSL } from '../../../../../scripts/lib/dsl-fixtures.ts';

/**
 * Every request a page plan sends, as expected Query DSL: one params file and one
 * DSL file per case under fixtures/queries/page-plan/ (built by scripts/lib/page-plan-dsl.ts).
 * The test only compares; `npm run fixtures:write` rewrites the expected files.
 */
describe('page plan requests (fixtures/queries/page-plan)', () => {
  const cases = dslFixtures('page-plan');
  it('has cases', () => expect(cases.length).toBeGreaterThan(5));
  it.each(cases)('$name', ({ params, dsl }) => {
    expect(FIXTURE_DSL['page-plan']!(params)).toEqual(dsl);
  });
});
