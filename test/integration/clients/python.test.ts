import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snakeCase } from '../../../scripts/lib/python-client.ts';
import { buildApp } from '../../../services/api/app.ts';
import { buildCertificateSnapshots } from '../../../services/bulk/build-certificates.ts';
import { folderStorage } from '../../../services/bulk/folder-storage.ts';
import { createKey } from '../../../services/control/billing/api-keys.ts';
import { createClient, setClient } from '../../../services/control/billing/clients.ts';
import { createEndpoint } from '../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../services/control/feed/webhook-secrets.ts';
import { openTestRuntime, type TestRuntime } from '../../helpers/runtime.ts';
import { fixturePath, loadEveryDataset } from '../../helpers/every-dataset.ts';

/**
 * The Python client (clients/python) against the app on a real port, run by the machine's
 * Debian Python 3 with nothing but its standard library: clients/python/tests/run_live.py runs
 * the unittest cases of test_live.py and prints one JSON line (counts, each failure's text, and
 * what the cases saw), which is checked here against the API's own answers.
 *
 * The rate-limit window is 3 s (RATE_LIMIT_WINDOW_MS, tests only), so the 429 case waits out a
 * real Retry-After of at most 3 s instead of a minute.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const _fixture = (path: string) => join(ROOT, 'fixtures', path);
const RUN_LIVE = join(ROOT, 'clients/python/tests/run_live.py');
/** Debian's interpreter, not whatever python3 a PATH puts first (pyenv and the like bring their own packages). */
const PYTHON = '/usr/bin/python3';
/** The test methods of test_live.py: a case that stops being collected fails the count. */
const CASES = 15;

interface Summary {
  python: string;
  run: number;
  failures: { test: string; text: string }[];
  skipped: string[];
  facts: {
    reads: string[];
    read_answers: Record<string, string>;
    csv_header: string;
    csv_lines: number;
    county_total: number;
    county_rows: number;
    county_unique: number;
    rate_limited: { retry_after: number; elapsed: number; statuses: number[] };
    server_errors: number[];
    idempotent_write: { posts: number[]; portfolios: number; id: string };
    unauthorized: { status: number; code: string; request_id: string };
    pandas_message: string;
  };
  log: string;
}

describe('the Python client against the running API', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let baseUrl: string;
  let key: string;
  let summary: Summary;

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url, { RATE_LIMIT_WINDOW_MS: '3000' });
    app = await buildApp(t.runtime);
    const newKey = async (plan: 'enterprise' | 'developer', rpm?: number) => {
      const client = await createClient(t.runtime.sql, { name: `python client ${plan}`, plan });
      if (rpm !== undefined) await setClient(t.runtime.sql, client.id, { rpm });
      const made = await createKey(t.runtime.sql, {
        clientId: client.id,
        env: 'live',
        prefix: t.config.KEY_PREFIX,
        secret: t.config.KEY_HASH_SECRET,
      });
      return { clientId: client.id, key: made.raw };
    };
    const main = await newKey('enterprise');
    key = main.key;
    // Two requests per 3-second window: the third is a real 429 with Retry-After.
    const limited = await newKey('developer', 2);
    await createEndpoint(t.runtime.sql, createSecretBox(t.config.WEBHOOK_SECRET_KEY), {
      clientId: main.clientId,
      url: 'https://hooks.example.com/in',
      types: null,
      counties: null,
    });
    await loadEveryDataset(t.runtime, { file: fixturePath('demo/broward/2024.csv.gz'), county: 'broward', taxYear: 2024 }, ['holders']);
    await buildCertificateSnapshots({ ...t.runtime, storage: folderStorage(t.config.BULK_DIR) });
    await app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    summary = await new Promise<Summary>((resolve, reject) => {
      execFile(
        PYTHON,
        [RUN_LIVE],
        {
          env: {
            PATH: process.env.PATH,
            TAXCERT_BASE_URL: baseUrl,
            TAXCERT_API_KEY: key,
            TAXCERT_LIMITED_KEY: limited.key,
            PYTHONNOUSERSITE: '1',
            PYTHONDONTWRITEBYTECODE: '1',
          },
          timeout: 300_000,
          maxBuffer: 16 * 1024 * 1024,
        },
        (err, stdout, stderr) => {
          const line = stdout.trim().split('\n').pop() ?? '';
          try {
            resolve(JSON.parse(line) as Summary);
          } catch {
            reject(new Error(`run_live.py printed no summary (${err?.message ?? 'exit 0'}):\n${stderr}\n${stdout}`));
          }
        },
      );
    });
  }, 600_000);
  afterAll(async () => {
    await app?.close();
    await t?.teardown();
  });

  it('passes every case of test_live.py on the machine’s Python 3', () => {
    const failed = summary.failures.map((f) => `${f.test}\n${f.text}`).join('\n');
    expect(failed, `Python ${summary.python} failures:\n${failed}`).toBe('');
    expect(summary.skipped).toEqual([]);
    expect(summary.run).toBe(CASES);
  });

  it('called every read operation of the served document once, each answered 2xx', async () => {
    const document = (await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const reads = Object.values(document.paths)
      .flatMap((item) => (item.get?.operationId ? [snakeCase(item.get.operationId)] : []))
      .sort();
    expect(reads.length).toBeGreaterThan(30);
    expect(summary.facts.reads).toEqual(reads);
    expect(summary.facts.read_answers.get_certificate).toBe('dict');
    expect(summary.facts.read_answers.get_portfolio_calendar).toBe('str');
    expect(summary.facts.read_answers.download_bulk_file).toBe('bytes');
    expect(summary.facts.csv_header).toMatch(/^id,certificate_number,/);
    expect(summary.facts.csv_lines).toBe(3);
  });

  it('walked Broward to its end: the total the API reports, each row once', async () => {
    const res = await fetch(`${baseUrl}/api/v1/certificates/search?county=broward&limit=1`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const answer = (await res.json()) as { pagination: { total: number } };
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.pagination.total).toBeGreaterThan(500);
    expect(summary.facts.county_total).toBe(answer.pagination.total);
    expect(summary.facts.county_rows).toBe(answer.pagination.total);
    expect(summary.facts.county_unique).toBe(answer.pagination.total);
  });

  it('retried a real 429 no sooner than its Retry-After, and a 503 and a 408 from a server in front', () => {
    const { retry_after, elapsed, statuses } = summary.facts.rate_limited;
    expect(statuses[0]).toBe(429);
    expect(retry_after).toBeGreaterThanOrEqual(1);
    expect(retry_after).toBeLessThanOrEqual(3);
    expect(elapsed).toBeGreaterThanOrEqual(retry_after);
    expect(summary.facts.server_errors).toEqual([503, 408, 200]);
  });

  it('retried a write whose answer was lost under the same Idempotency-Key: one portfolio, not two', async () => {
    const { posts, portfolios, id } = summary.facts.idempotent_write;
    expect(posts).toEqual([502, 201]);
    expect(portfolios).toBe(1);
    const stored = await fetch(`${baseUrl}/api/v1/portfolios/${id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(stored.status).toBe(200);
  });

  it('raised AuthenticationError on a 401 carrying the answer’s request_id, and a clear ImportError without pandas', () => {
    expect(summary.facts.unauthorized).toEqual({ status: 401, code: 'unauthorized', request_id: expect.stringMatching(/^req_/) });
    expect(summary.facts.pandas_message).toContain("pip install 'taxcert[pandas]'");
  });
});
