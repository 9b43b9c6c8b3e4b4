import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkWriter } from '../../../../indexer/load/bulk.ts';
import { createClient } from '../../../../services/control/billing/clients.ts';
import { createPortfolio, positionsOf } from '../../../../services/control/portfolios/index.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import type { CertificateRecord } from '../../../../services/domain/records.ts';
import { type CliSuite, openCliSuite, runCli } from '../../../helpers/cli.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

// `taxcert portfolios import | list | summary`: an operator acting as the portfolio's owner through
// the API's own write and reads, with the CSV reader the account page uses.

let suite: CliSuite;
let loaded: CertificateRecord;

beforeAll(async () => {
  suite = await openCliSuite(import.meta.url, 'taxcert-portfolios-cli-');
  loaded = sampleCertificate({}, 1);
  const writer = createBulkWriter(suite.t.runtime.opensearch, {
    index: aliasName(suite.t.config.INDEX_PREFIX, 'certificates'),
    refresh: true,
  });
  await writer.add(loaded.id, loaded);
  expect((await writer.flush()).failed).toBe(0);
});
afterAll(async () => suite?.close());

const cli = async (...args: string[]) => {
  const r = await runCli(args, suite.env);
  return { ...r, json: () => JSON.parse(r.stdout) };
};

let n = 0;
async function portfolio(plan: Parameters<typeof createClient>[1]['plan'] = 'pro') {
  const { sql } = suite.t.runtime;
  const client = await createClient(sql, { name: `portfolios cli ${++n}`, plan });
  const made = await createPortfolio(sql, { clientId: client.id, name: `Fund ${n}`, followHolderGroup: null, limit: 10 });
  return { clientId: client.id, id: made.id };
}

function csv(name: string, text: string): string {
  const path = join(suite.dir, name);
  writeFileSync(path, text);
  return path;
}

describe('taxcert portfolios import', () => {
  it("adds a file's lines as the owner, reporting each by the file's own line number; a rejected line exits 1", async () => {
    const p = await portfolio();
    const file = csv(
      'good.csv',
      [
        '\uFEFFcounty,certificate_number,tax_year,acquired_on,acquired_amount,note',
        `${loaded.county_slug},${loaded.certificate_number},2023,2024-06-01,"1,850.40","bought, at the sale"`,
        '',
        'lee,NOT-YET-1,2024,,,',
        'lee,NOT-YET-2,nineteen,,,',
        `${loaded.county_slug},${loaded.certificate_number},2023,,,`,
      ].join('\r\n'),
    );
    const r = await cli('portfolios', 'import', p.id, file, '--json');
    expect(r.code, r.stderr).toBe(1);
    const report = r.json();
    expect(report).toMatchObject({ portfolio_id: p.id, created: 2, unresolved: 1, rejected: 2 });
    expect(report.lines.map((l: { line: number; status: string }) => [l.line, l.status])).toEqual([
      [2, 'created'],
      [4, 'created'],
      [5, 'rejected'],
      [6, 'rejected'],
    ]);
    expect(report.lines[0].position).toMatchObject({
      certificate_id: loaded.id,
      acquired_amount: 1850.4,
      note: 'bought, at the sale',
      resolved: true,
    });
    expect(report.lines[2].error).toMatchObject({ code: 'invalid', field: 'tax_year' });
    expect(report.lines[3].error).toMatchObject({ code: 'duplicate' });
    expect((await positionsOf(suite.t.runtime.sql, p.id)).map((x) => x.certificate_number).sort()).toEqual(
      [loaded.certificate_number, 'NOT-YET-1'].sort(),
    );

    const text = await cli('portfolios', 'import', p.id, csv('again.csv', 'lee,NOT-YET-3,2024\n'));
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`-> ${p.id}: 1 created (1 not loaded yet), 0 rejected`);
    expect(text.stdout).toMatch(/line 1: created pos_\S+ lee NOT-YET-3 2024 \(not loaded yet\)/);
  });

  it('adds nothing from a malformed file and names the line at fault', async () => {
    const p = await portfolio();
    const r = await cli('portfolios', 'import', p.id, csv('bad.csv', 'lee,A-1,2024\nlee,"A-2,2024\nlee,A-3,2024\n'), '--json');
    expect(r.code).toBe(1);
    expect(r.json().error).toEqual({ code: 'invalid_file', message: expect.stringMatching(/bad\.csv: line 2: a quoted field opens here/) });
    const columns = await cli('portfolios', 'import', p.id, csv('cols.csv', 'lee,A-1,2024\nlee,A-2\n'));
    expect(columns.code).toBe(1);
    expect(columns.stderr).toContain('line 2: has 2 fields where the first line has 3');
    expect(await positionsOf(suite.t.runtime.sql, p.id)).toEqual([]);
  });

  it('refuses an unknown portfolio, a missing file and a missing argument', async () => {
    const file = csv('one.csv', 'lee,A-1,2024\n');
    const unknown = await cli('portfolios', 'import', 'pf_nope', file, '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.json().error.code).toBe('not_found');
    const missing = await cli('portfolios', 'import', (await portfolio()).id, join(suite.dir, 'absent.csv'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    expect((await cli('portfolios', 'import', 'pf_x')).code).toBe(2);
  });
});

describe('taxcert portfolios list and summary', () => {
  it("lists a client's portfolios and sums one as of a day, as the API's reads do", async () => {
    const p = await portfolio();
    const listed = await cli('portfolios', 'list', '--client', p.clientId, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json()).toEqual([expect.objectContaining({ id: p.id, name: `Fund ${n}`, follow_holder_group: null })]);
    expect((await cli('portfolios', 'list', '--client', 'cl_nobody')).code).toBe(1);

    expect(
      (await cli('portfolios', 'import', p.id, csv('sum.csv', `${loaded.county_slug},${loaded.certificate_number},2023\nlee,X-9,2024\n`)))
        .code,
    ).toBe(0);
    const summary = await cli('portfolios', 'summary', p.id, '--as-of', '2025-06-15', '--json');
    expect(summary.code, summary.stderr).toBe(0);
    expect(summary.json()).toMatchObject({ portfolio_id: p.id, as_of: '2025-06-15', positions: 2, unresolved: 1 });
    expect(summary.json().by_status.unresolved).toBe(1);

    const text = await cli('portfolios', 'summary', p.id, '--as-of', '2025-06-15');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`${p.id} as of 2025-06-15: 2 positions (1 not loaded yet)`);
    expect(text.stdout).toMatch(/^outstanding: \d+ positions, face [\d,.]+ USD/m);

    const bad = await cli('portfolios', 'summary', p.id, '--as-of', '2025-02-30');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--as-of must be a calendar date YYYY-MM-DD');
  });
});
