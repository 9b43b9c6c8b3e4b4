/**
 * Rewrites the expected Query DSL of the builder fixtures: fixtures/queries/<folder>/<case>.dsl.json
 * from <case>.params.json, with the builds the fixture tests compare against
 * (scripts/lib/dsl-fixtures.ts, which the tests import). Tests never write these files; run this
 * by hand after changing a builder on purpose, then review the diff as part of the change.
 *
 *   npm run fixtures:write                      every folder
 *   npm run fixtures:write -- page-plan holders only these folders
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { FIXTURE_DSL, fixtureNames, fixtureText, QUERY_FIXTURES_DIR, readFixture } from './lib/dsl-fixtures.ts';

const asked = process.argv.slice(2);
const unknown = asked.filter((f) => !(f in FIXTURE_DSL));
if (unknown.length > 0) {
  console.error(`unknown fixture folder ${unknown.join(', ')}; known: ${Object.keys(FIXTURE_DSL).join(', ')}`);
  process.exit(2);
}

let changed = 0;
let cases = 0;
for (const folder of asked.length > 0 ? asked : Object.keys(FIXTURE_DSL)) {
  const build = FIXTURE_DSL[folder]!;
  for (const name of fixtureNames(folder)) {
    const file = `${QUERY_FIXTURES_DIR}${folder}/${name}.dsl.json`;
    const text = fixtureText(build(readFixture(folder, `${name}.params.json`)));
    const before = (() => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return null;
      }
    })();
    cases++;
    if (before === text) continue;
    writeFileSync(file, text);
    changed++;
    console.log(`${before === null ? 'new' : 'rewrote'} fixtures/queries/${folder}/${name}.dsl.json`);
  }
}
console.log(`${cases} cases, ${changed} expected file${changed === 1 ? '' : 's'} written`);
