// @module-tag postgres
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliSuite, openCliSuite, runCli } from '../../../helpers/cli.ts';

// An ingest of a file with one changed row reported "indexed 0, updated 1494": every document
// the engine replaced counted as an update, changed or not. It now says which changed.

const good = fileURLToPath(new URL('../../../../fixtures/files/lienport-csv/good.csv', import.meta.url));

let suite: CliSuite;
beforeAll(async () => {
  suite = await openCliSuite(import.meta.url, 'taxcert-ingest-report-');
});
afterAll(() => suite.close());

const ingest = (file: string, json = false) =>
  runCli(
    ['ingest', '--vendor', 'lienport', '--county', 'miami-dade', '--tax-year', '2024', file, '--wait', ...(json ? ['--json'] : [])],
    suite.env,
  );

describe('taxcert ingest --wait', () => {
  it('says how many documents are new, changed and unchanged', async () => {
    const file = join(suite.dir, 'miami-dade-2024.csv');
    writeFileSync(file, readFileSync(good));
    const first = await ingest(file);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/: read 5, new 5, changed 0, unchanged 0, quarantined 0\n/);

    // One owner's name corrected: one certificate changed, four sent again as they were.
    const text = readFileSync(good, 'utf8');
    expect(text).toContain('"SMITH, JOHN & MARY"');
    writeFileSync(file, text.replace('"SMITH, JOHN & MARY"', '"SMITH, JOHN"'));
    const second = await ingest(file);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/: read 5, new 0, changed 1, unchanged 4, quarantined 0\n/);
    expect(second.stdout).toMatch(/1\/1 files loaded; rows read 5, new 0, changed 1, unchanged 4, quarantined 0/);

    // The same file again: nothing changed. --json keeps the engine's counts beside them.
    const third = await ingest(file, true);
    expect(JSON.parse(third.stdout)).toMatchObject({ indexed: 0, updated: 5, changed: 0, unchanged: 5 });
  });
});
