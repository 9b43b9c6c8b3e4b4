import { readdirSync, readFileSync } from 'node:fs';

/** The fixture pairs of one endpoint: fixtures/queries/<endpoint>/<case>.params.json + <case>.dsl.json. */
export function fixtureCases(endpoint: string): { name: string; params: unknown; dsl: unknown }[] {
  const dir = new URL(`../../../../fixtures/queries/${endpoint}/`, import.meta.url);
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.params.json'))
    .map((f) => f.replace(/\.params\.json$/, ''))
    .sort();
  return names.map((name) => ({
    name,
    params: JSON.parse(readFileSync(new URL(`${name}.params.json`, dir), 'utf8')),
    dsl: JSON.parse(readFileSync(new URL(`${name}.dsl.json`, dir), 'utf8')),
  }));
}
