/**
 * Regenerates the demo data set shipped in fixtures/demo (DEMO_SET: 55,000
 * certificates, gzipped) in every certificate-level county's platform format, a
 * parcels-csv file per county, with
 * the manifest and sources the ingest reads. Deterministic: rerunning it changes no
 * bytes unless the generator or a writer changed. Old files are removed first, so
 * a set that shrinks leaves nothing stale behind.
 *
 *   npm run demo:write
 */
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DEMO_SET } from '../services/generator/demo-set.ts';
import { generateFixtures } from '../services/generator/generate-fixtures.ts';

// Relative to the repository, wherever the script is run from.
const out = fileURLToPath(new URL('../fixtures/demo', import.meta.url));
await rm(out, { recursive: true, force: true });
const summary = await generateFixtures({ out, ...DEMO_SET });
console.log(
  `fixtures/demo: ${summary.certificates} certificates in ${summary.files} files across ${summary.counties} counties, ${summary.parcels} parcel rows`,
);
