import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dslFixtures, FIXTURE_DSL, QUERY_FIXTURES_DIR } from '../../../../../scripts/lib/dsl-fixtures.ts';

/**
 * The builds scripts/write-query-fixtures.ts writes with are the builds the stored files
 * hold: every folder under fixtures/queries has one, and it reproduces every case, so
 * regenerating after no builder change leaves no diff.
 */
describe('query fixtures and their writer agree', () => {
  const folders = readdirSync(QUERY_FIXTURES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  it('every folder has a build, and every build a folder', () => {
    expect(folders).toEqual(Object.keys(FIXTURE_DSL).sort());
  });
  for (const folder of folders) {
    it(folder, () => {
      for (const { name, params, dsl } of dslFixtures(folder)) expect(FIXTURE_DSL[folder]!(params), name).toEqual(dsl);
    });
  }
});
