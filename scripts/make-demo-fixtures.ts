/**
 * Regenerates the small demo data set shipped in fixtures/demo: about 1,500
 * certificates in every certificate-level county's platform format, with the
 * manifest and sources the ingest reads. Deterministic: rerunning it changes no
 * bytes unless the generator or a writer changed.
 *
 *   npx tsx scripts/make-demo-fixtures.ts
 */
import { fileURLToPath } from 'node:url';
import { DEMO_SET } from './generator/demo-set.ts';
import { generateFixtures } from './generator/generate-fixtures.ts';

// Relative to the repository, wherever the script is run from.
const out = fileURLToPath(new URL('../fixtures/demo', import.meta.url));
const summary = await generateFixtures({ out, ...DEMO_SET });
console.log(`fixtures/demo: ${summary.certificates} certificates in ${summary.files} files across ${summary.counties} counties`);
