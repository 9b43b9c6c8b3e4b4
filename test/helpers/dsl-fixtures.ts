import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface DslFixture {
  name: string;
  params: unknown;
  dsl: unknown;
}

/**
 * The expected-DSL pairs of one endpoint: fixtures/queries/<endpoint>/<case>.params.json
 * (what a client sends, as native values) and <case>.dsl.json (the Query DSL the builder
 * must produce). A new filter or sort is a new pair.
 */
export function dslFixtures(endpoint: string): DslFixture[] {
  const dir = fileURLToPath(new URL(`../../fixtures/queries/${endpoint}/`, import.meta.url));
  const read = (file: string) => JSON.parse(readFileSync(`${dir}${file}`, 'utf8')) as unknown;
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.params.json'))
    .map((f) => f.slice(0, -'.params.json'.length))
    .sort();
  if (names.length === 0) throw new Error(`no fixtures under fixtures/queries/${endpoint}`);
  return names.map((name) => ({ name, params: read(`${name}.params.json`), dsl: read(`${name}.dsl.json`) }));
}
