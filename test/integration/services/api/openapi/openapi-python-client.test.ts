import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../../services/api/app.ts';
import { enqueueFiles } from '../../../../../services/process/ingest-runner.ts';
import { apiKeyHeaders } from '../../../../helpers/access.ts';
import { openTestRuntime, type TestRuntime } from '../../../../helpers/runtime.ts';

/**
 * A Python customer's client, built the way they would build it: openapi-generator
 * (Maven Central, fetched by scripts/openapi-generator/install.sh) turns the served
 * document into a package, and Debian's own Python 3 with Debian's packages (there is
 * no PyPI here) searches certificates and reads one by id over it, against the app on
 * a real port. Debian 12 ships pydantic 1.10, so the generator is python-pydantic-v1.
 *
 * This is what failed for a new user: every date carried zod's calendar regex as a
 * `pattern`, which the generated model matched against the parsed date object, so
 * every search raised before the caller saw a row.
 */

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const INSTALL = join(ROOT, 'scripts/openapi-generator/install.sh');
const JAR = join(ROOT, '.cache/openapi-generator/openapi-generator-cli-7.17.0.jar');
/** Debian's interpreter, not whatever python3 a PATH puts first (pyenv and the like bring their own packages). */
const PYTHON = '/usr/bin/python3';
const PACKAGES = 'python3-urllib3 python3-pydantic python3-dateutil python3-typing-extensions';
const run = promisify(execFile);

/** The customer's code: every call goes through the generated package; it prints what it read as JSON. */
const CLIENT = `
import json, sys
import taxcert_client
from taxcert_client.api.certificates_api import CertificatesApi
from taxcert_client.api.saved_searches_api import SavedSearchesApi
from taxcert_client.models.create_saved_search_request import CreateSavedSearchRequest

base_url, api_key = sys.argv[1], sys.argv[2]
config = taxcert_client.Configuration(host=base_url, access_token=api_key)
with taxcert_client.ApiClient(config) as client:
    api = CertificatesApi(client)
    # facets asked for: the python-pydantic-v1 template reads an absent optional map (facets)
    # without a None check (its own bug, not the document's), so a search without facets
    # fails in that generator's models whatever the document says.
    found = api.search_certificates(county=["broward"], status=["sold", "redeemed"], sort="face_desc", facets=["status"], limit=3)
    first = found.data[0]
    one = api.get_certificate(first.id)
    # A saved search: params as the search takes them (a list as text, a number as text), read back
    # as stored, then deleted; reading it again is the generated client's 404.
    saved_api = SavedSearchesApi(client)
    body = CreateSavedSearchRequest.from_dict({"name": "Broward, sold", "params": {"county": "broward", "status": ["sold"], "face_min": "100"}})
    made = saved_api.create_saved_search(body, idempotency_key="python-saved-search-1")
    got = saved_api.get_saved_search(made.data.id)
    gone = saved_api.delete_saved_search(made.data.id)
    try:
        saved_api.get_saved_search(made.data.id)
        after = None
    except taxcert_client.ApiException as e:
        after = e.status
    print(json.dumps({
        "saved": {"same": got.data.id == made.data.id, "name": got.data.name, "params": got.data.params.to_dict(), "deleted": [gone.data.id == made.data.id, gone.data.deleted], "after": after},
        "ids": [c.id for c in found.data],
        "total": found.pagination.total,
        "status_counts": {str(b.value.actual_instance if hasattr(b.value, "actual_instance") else b.value): b.count for b in found.facets["status"]},
        "sale_date": first.sale_date.isoformat(),
        "one": {"id": one.data.id, "parcel_id": one.data.parcel_id, "sale_date": one.data.sale_date.isoformat(), "face_amount": one.data.face_amount},
    }))
`;

describe('a Python client generated from the served document with openapi-generator', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let baseUrl: string;
  let dir: string;
  let key: string;

  beforeAll(async () => {
    // Debian's packages, not PyPI's: a missing one is a setup step, said plainly.
    const modules = await run(PYTHON, ['-c', 'import urllib3, pydantic, dateutil, typing_extensions']).then(
      () => '',
      (err: { stderr?: string }) => err.stderr ?? String(err),
    );
    expect(modules, `Debian's Python 3 lacks the client's packages: apt-get install -y ${PACKAGES}`).toBe('');
    // Idempotent: returns at once when the jar is there (.ci/run calls it before the tests).
    if (!existsSync(JAR)) await run('bash', [INSTALL], { timeout: 600_000 });

    t = await openTestRuntime(import.meta.url);
    app = await buildApp(t.runtime);
    key = (await apiKeyHeaders(t.runtime)).authorization.slice('Bearer '.length);
    const outcomes = await enqueueFiles(
      t.runtime,
      [
        {
          dataset: 'certificates',
          file: join(ROOT, 'fixtures/demo/broward/2024.csv.gz'),
          vendor: 'lienport',
          county: 'broward',
          taxYear: 2024,
        },
      ],
      { wait: true },
    );
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded']);
    await app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    dir = mkdtempSync(join(tmpdir(), 'openapi-python-client-'));
  }, 900_000);
  afterAll(async () => {
    await app?.close();
    await t?.teardown();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the document describes dates by format alone: no pattern beside format date or date-time', async () => {
    const document = await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json();
    const dated: { path: string; pattern: unknown }[] = [];
    const walk = (node: unknown, path: string) => {
      if (Array.isArray(node)) for (const [i, n] of node.entries()) walk(n, `${path}/${i}`);
      else if (node && typeof node === 'object') {
        const o = node as Record<string, unknown>;
        if ((o.format === 'date' || o.format === 'date-time') && typeof o.type === 'string') dated.push({ path, pattern: o.pattern });
        for (const [k, v] of Object.entries(o)) walk(v, `${path}/${k}`);
      }
    };
    walk(document, '');
    // Certificate dates, sale dates and the date filters of every search are all there.
    expect(dated.length).toBeGreaterThan(15);
    expect(dated.filter((d) => d.pattern !== undefined)).toEqual([]);
  });

  it('generates the package, then searches certificates, reads one by id and creates, reads and deletes a saved search with Debian Python 3', async () => {
    const served = await fetch(`${baseUrl}/api/v1/openapi.json`);
    expect(served.status).toBe(200);
    writeFileSync(join(dir, 'openapi.json'), await served.text());
    // python-pydantic-v1: Debian 12's pydantic is 1.10 (the python generator writes pydantic 2 code).
    await run(
      'java',
      [
        '-jar',
        JAR,
        'generate',
        '--generator-name',
        'python-pydantic-v1',
        '--input-spec',
        join(dir, 'openapi.json'),
        '--output',
        join(dir, 'client'),
        '--package-name',
        'taxcert_client',
        '--additional-properties',
        'generateSourceCodeOnly=true',
      ],
      { timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
    );
    writeFileSync(join(dir, 'read.py'), CLIENT);

    const { stdout } = await run(PYTHON, [join(dir, 'read.py'), baseUrl, key], {
      env: { PATH: process.env.PATH, PYTHONPATH: join(dir, 'client'), PYTHONNOUSERSITE: '1' },
      timeout: 120_000,
    }).catch((err: { stderr?: string }) => {
      throw new Error(`the generated client failed:\n${err.stderr ?? String(err)}`);
    });
    const read = JSON.parse(stdout) as {
      saved: Record<string, unknown>;
      ids: string[];
      total: number;
      status_counts: Record<string, number>;
      sale_date: string;
      one: Record<string, unknown>;
    };

    // The same answers REST gives.
    const rest = (await (
      await fetch(`${baseUrl}/api/v1/certificates/search?county=broward&status=sold,redeemed&sort=face_desc&facets=status&limit=3`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ).json()) as {
      data: { id: string; parcel_id: string; sale_date: string; face_amount: number }[];
      pagination: { total: number };
      facets: { status: { value: unknown; count: number }[] };
    };
    expect(read.saved).toEqual({
      same: true,
      name: 'Broward, sold',
      params: { county: ['broward'], status: ['sold'], face_min: 100 },
      deleted: [true, true],
      after: 404,
    });
    expect(read.ids).toEqual(rest.data.map((c) => c.id));
    expect(read.total).toBe(rest.pagination.total);
    expect(read.status_counts).toEqual(Object.fromEntries(rest.facets.status.map((b) => [String(b.value), b.count])));
    expect(read.sale_date).toBe(rest.data[0]!.sale_date);
    expect(read.one).toEqual({
      id: rest.data[0]!.id,
      parcel_id: rest.data[0]!.parcel_id,
      sale_date: rest.data[0]!.sale_date,
      face_amount: rest.data[0]!.face_amount,
    });
  }, 600_000);
});
