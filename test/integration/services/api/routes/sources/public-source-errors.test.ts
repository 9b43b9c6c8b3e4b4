import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../../services/api/app.ts';
import { enqueueFiles } from '../../../../../../services/process/ingest-runner.ts';
import { getRun } from '../../../../../../services/control/ingest/ingest-runs.ts';
import { getSource } from '../../../../../../services/control/ingest/sources.ts';
import { apiKeyHeaders, deleteRateKeys } from '../../../../../helpers/access.ts';
import { connectMcp } from '../../../../../helpers/mcp.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';

const good = fileURLToPath(new URL('../../../../../../fixtures/files/lienport-csv/good.csv', import.meta.url));
/** What a county file's first line may hold, and what no customer may read back. */
const SECRET = 'INTERNAL-NOTE do-not-publish 555-0100';

/**
 * Public answers reveal nothing internal: a rejected file's message (an absolute server path and
 * the file's first line) was once stored as the source row's lastError and served to every key by
 * /api/v1/sources, list_sources and CSV. Now a code and a fixed sentence are served; the full
 * message stays with the ingest run for operators.
 */
describe('a rejected file tells customers a code, not the server or the file', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let base: string;
  let dir: string;
  let mcp: Client;
  let jobId: string;
  let leaky: string;

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'public-source-errors-'));
    leaky = join(dir, 'secret-export-dir', 'miami-dade-2024.csv');
    const job = (file: string) => ({ dataset: 'certificates' as const, file, vendor: 'lienport', county: 'miami-dade', taxYear: 2024 });
    // A good file registers the source row; the bad one then fails on it.
    expect((await enqueueFiles(t.runtime, [job(good)], { wait: true }))[0]!.status).toBe('succeeded');
    mkdirSync(join(dir, 'secret-export-dir'));
    writeFileSync(leaky, `${SECRET},not,a,lienport,header\n1,2,3,4,5\n`);
    const [outcome] = await enqueueFiles(t.runtime, [job(leaky)], { wait: true });
    expect(outcome!.status).toBe('failed');
    jobId = outcome!.jobId;
    app = await buildApp(t.runtime);
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    mcp = await connectMcp(base, await apiKeyHeaders(t.runtime));
  });
  afterAll(async () => {
    await mcp?.close();
    await app?.close();
    await deleteRateKeys(t.runtime, t.config.INDEX_PREFIX);
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  const PUBLIC = 'unknown_format: the county file is not in the format expected for this feed';
  const expectClean = (text: string) => {
    expect(text).not.toContain(dir);
    expect(text).not.toContain('secret-export-dir');
    expect(text).not.toContain('INTERNAL-NOTE');
  };

  it('stores the code and a fixed sentence on the source row, the full message on the run', async () => {
    expect((await getSource(t.runtime.sql, 'miami-dade', 2024))!.lastError).toBe(PUBLIC);
    const run = (await getRun(t.runtime.sql, jobId))!;
    expect(run).toMatchObject({ status: 'failed', errorCode: 'unknown_format' });
    expect(run.errorMessage).toContain('INTERNAL-NOTE');
  });

  it('serves it clean in /api/v1/sources JSON and CSV', async () => {
    for (const url of ['/api/v1/sources?county=miami-dade', '/api/v1/sources/miami-dade', '/api/v1/sources?county=miami-dade&format=csv']) {
      const res = await app.inject({ method: 'GET', url, headers: await apiKeyHeaders(t.runtime) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain(PUBLIC);
      expectClean(res.body);
    }
  });

  it('serves it clean through the list_sources tool', async () => {
    const result = await mcp.callTool({ name: 'list_sources', arguments: { county: 'miami-dade' } });
    const text = JSON.stringify(result);
    expect(text).toContain(PUBLIC);
    expectClean(text);
  });
});
