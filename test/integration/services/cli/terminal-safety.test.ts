// @module-tag postgres
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliSuite, openCliSuite, runCli } from '../../../helpers/cli.ts';

// County text must not reach the operator's terminal raw: `taxcert quarantine list` once printed a
// county file's raw row as it was, so a row could drive the operator's terminal (clear it, retitle
// it, recolour what follows, reverse text with a bidi override); and the worker's spools sat in the
// shared temp folder, readable by anyone, with a killed worker's left for ever.

const HEADER =
  '"Cert #","Tax Year","County","Parcel Number","Status","Face Amount","Delinquent Tax","Bid Rate %","Sale Date","Certificate Holder","Struck To County","Redeemed","Redemption Date","Redemption Amount","Tax Deed App Date","Owner Name","Situs Address","Legal Description","Batch #"';
// An owner name a bidder or a county export could carry: OSC window title, clear screen, colour,
// the one-byte C1 CSI, DEL, a carriage return and a right-to-left override.
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\u001b[31mSMITH\u009b1m\u007f\rJOHN \u202eDLOS';
const GOOD = `2023-000001,2023,Miami-Dade,01-3125-041-0001,SOLD,$1260.00,$1200.00,5,05/28/2024,Gulf Coast Lien Fund LLC,N,N,,,,"DOE, JANE","1 NW 5TH ST, MIAMI, FL 33128",,B-1`;
// Refused for its face amount, so the hostile owner name lands in quarantine.
const BAD = `2023-000002,2023,Miami-Dade,01-3125-041-0002,SOLD,"$12,3x4",$100.00,5,05/28/2024,Gulf Coast Lien Fund LLC,N,N,,,,"${HOSTILE}","2 NW 5TH ST, MIAMI, FL 33128",,B-1`;

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the test
const TERMINAL_CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('county text on the operator terminal, and the spools it passes through', () => {
  let suite: CliSuite;
  let tmp: string;
  let stale: string;

  beforeAll(async () => {
    suite = await openCliSuite(import.meta.url, 'taxcert-terminal-safety-');
    // The worker's temp folder, with the spool directory of a worker that is gone (no pid is that high).
    tmp = join(suite.dir, 'tmp');
    stale = join(tmp, 'taxcert-spools-999999999-AbC123');
    mkdirSync(stale, { recursive: true });
    writeFileSync(join(stale, 'certificates-job_1-1f2e'), 'every row of a county file');
    const file = join(suite.dir, 'hostile.csv');
    writeFileSync(file, `${[HEADER, GOOD, BAD].join('\n')}\n`);
    const ingest = await runCli(
      ['--json', 'ingest', '--vendor', 'lienport', '--county', 'miami-dade', '--tax-year', '2023', file, '--wait'],
      { ...suite.env, TMPDIR: tmp },
    );
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(JSON.parse(ingest.stdout).jobs[0].result.quarantined).toBe(1);
  });
  afterAll(() => suite.close());

  it('the worker the ingest started swept the dead worker spools and took its own along when it exited', () => {
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(tmp).filter((e) => e.startsWith('taxcert-spool'))).toEqual([]);
  });

  it('quarantine list shows the row with every control character escaped', async () => {
    const r = await runCli(['quarantine', 'list'], suite.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(r.stdout).toContain('\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mSMITH\\x9b1m\\x7f\\rJOHN \\u202eDLOS');
  });

  it('--json keeps the row exact for a parser and still sends no control character to the terminal', async () => {
    const r = await runCli(['--json', 'quarantine', 'list'], suite.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(TERMINAL_CONTROLS);
    const doc = JSON.parse(r.stdout) as { rows: { raw: string }[] };
    expect(doc.rows[0]?.raw).toContain(HOSTILE);
  });
});
