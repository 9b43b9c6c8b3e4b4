// @module-tag postgres
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCertificates } from '../../../../indexer/certificates/bookkeeping.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { getCounty, listCounties } from '../../../../services/control/ingest/counties.ts';
import { getDatasetState } from '../../../../services/control/ingest/freshness.ts';
import { listSources } from '../../../../services/control/ingest/sources.ts';
import { BIN, childEnv } from '../../../helpers/cli.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { freePort } from '../../../helpers/ports.ts';

const manifest = JSON.parse(readFileSync(new URL('../../../../fixtures/demo/manifest.json', import.meta.url), 'utf8')) as {
  certificates: number;
  files: { county: string; rows: number }[];
  parcels: { county: string; rows: number }[];
};
const sources = JSON.parse(readFileSync(new URL('../../../../fixtures/demo/sources.json', import.meta.url), 'utf8')) as unknown[];

/**
 * `npm start` runs `taxcert start`. Unattended (stdin closed), it must load the
 * demo data before /healthz first answers 200, and stop cleanly on SIGTERM.
 */
async function bannerKey(stderr: () => string, timeoutMs = 360_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = /Demo API key[^:]*: (\S+)/.exec(stderr());
    if (m) return m[1]!;
    if (Date.now() > deadline) throw new Error(`no demo key in the banner:\n${stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('taxcert start (npm start)', () => {
  let t: TestRuntime;
  let demoKey = '';
  let demoPassword = '';

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
  });
  afterAll(() => t.teardown());

  it('serves /healthz only once the demo data is searchable, then stops on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'start'], {
      env: childEnv(t.config, { PORT: String(port), LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      let status = 0;
      const deadline = Date.now() + 360_000;
      while (status !== 200 && Date.now() < deadline) {
        status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((r) => setTimeout(r, 250));
      }
      expect(status, stderr).toBe(200);

      // The first 200 means: every demo row searchable, and the control plane in step with it.
      const { opensearch, sql } = t.runtime;
      expect(await countCertificates(opensearch, t.config.INDEX_PREFIX)).toBe(manifest.certificates);
      const miami = (await getCounty(sql, 'miami-dade'))!;
      const miamiRows = manifest.files.filter((f) => f.county === 'miami-dade').reduce((n, f) => n + f.rows, 0);
      expect(miami).toMatchObject({ coverageStatus: 'certificate_level', certificateCount: miamiRows });
      expect(miami.lastImportAt).not.toBeNull();
      const coverage = (await listCounties(sql)).map((c) => c.coverageStatus);
      expect(coverage.filter((c) => c === 'certificate_level')).toHaveLength(new Set(manifest.files.map((f) => f.county)).size);
      expect(coverage.filter((c) => c === 'vendor_tracked').length).toBeGreaterThan(0);
      expect(coverage).toHaveLength(67);
      expect((await listSources(sql)).total).toBe(sources.length);
      expect((await getDatasetState(sql, 'certificates')).lastIngestedAt).not.toBeNull();
      expect(stderr).toContain(`http://127.0.0.1:${port}`);
      // The parcel files too, joined onto the certificates: all but the few whose parcel has no row have a location.
      const parcels = await opensearch.count({ index: aliasName(t.config.INDEX_PREFIX, 'parcels') });
      expect(parcels.body.count).toBe(manifest.parcels.reduce((n, f) => n + f.rows, 0));
      const located = await opensearch.count({
        index: aliasName(t.config.INDEX_PREFIX, 'certificates'),
        body: { query: { exists: { field: 'location' } } },
      });
      expect(located.body.count).toBeGreaterThan(0.97 * manifest.certificates);
      expect(located.body.count).toBeLessThan(manifest.certificates);

      // The demo key: printed in the banner with a ready curl line, accepted by the API,
      // kept beside the database (never in SQLite), and in no structured log line.
      const key = await bannerKey(() => stderr);
      expect(stderr).toContain(
        `curl -H "Authorization: Bearer ${key}" "http://127.0.0.1:${port}/api/v1/certificates/search?county=miami-dade&limit=2"`,
      );
      const usage = await fetch(`http://127.0.0.1:${port}/api/v1/account/usage`, { headers: { authorization: `Bearer ${key}` } });
      expect(usage.status).toBe(200);
      expect(((await usage.json()) as { data: { plan: string } }).data.plan).toBe('enterprise');
      expect(readFileSync(join(dirname(t.config.DATABASE_PATH), 'demo-api-key'), 'utf8').trim()).toBe(key);
      for (const line of stderr.split('\n').filter((l) => l.includes(key))) expect(line.startsWith('{')).toBe(false);
      demoKey = key;

      // The demo's holders are derived with it: a row's holder_id answers, no operator step needed.
      const search = await fetch(`http://127.0.0.1:${port}/api/v1/certificates/search?county=miami-dade&limit=1`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const row = ((await search.json()) as { data: { holder_id: string }[] }).data[0]!;
      const holder = await fetch(`http://127.0.0.1:${port}/api/v1/holders/${row.holder_id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(holder.status).toBe(200);

      // The demo sign-in of the account page, beside the key: it signs in as the demo client.
      const signIn = /Demo sign-in: (\S+) {2}password (\S+)/.exec(stderr);
      expect(signIn, stderr).not.toBeNull();
      const [, email, password] = signIn!;
      expect(stderr).toContain(`Account page: http://127.0.0.1:${port}/account`);
      expect(readFileSync(join(dirname(t.config.DATABASE_PATH), 'demo-password'), 'utf8').trim()).toBe(password);
      for (const line of stderr.split('\n').filter((l) => l.includes(password!))) expect(line.startsWith('{')).toBe(false);
      const form = await fetch(`http://127.0.0.1:${port}/account/signin`);
      const cookie = form.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
      const signedIn = await fetch(`http://127.0.0.1:${port}/account/signin`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, email: email!, password: password! }),
        redirect: 'manual',
      });
      expect(signedIn.status).toBe(303);
      const session = signedIn.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const overview = await fetch(`http://127.0.0.1:${port}/account`, { headers: { cookie: session } });
      expect(overview.status).toBe(200);
      expect(await overview.text()).toContain('Enterprise');
      demoPassword = password!;

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 400_000);

  it('prints the same demo key again on a later start', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'start'], {
      env: childEnv(t.config, { PORT: String(port), LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      expect(await bannerKey(() => stderr)).toBe(demoKey);
      expect(stderr).toContain(`password ${demoPassword}  `);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 400_000);
});
