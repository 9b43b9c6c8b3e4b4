import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../services/api/app.ts';
import { MAX_ISSUES } from '../../../../services/api/params/issues.ts';
import { migrate } from '../../../../services/control/db/migrate.ts';
import { apiKeyHeaders, deleteRateKeys } from '../../../helpers/access.ts';
import { type ErrorBody, postMcp } from '../../../helpers/mcp.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

/**
 * One MCP or REST call must not cost seconds of CPU: reproduced against the real app with a real
 * key, one call with thousands of unknown argument names, or one enormous name, used to cost the
 * event loop most of a second and answer megabytes (every problem listed, each name echoed whole, a
 * did-you-mean search over every byte). Now the answer names the first few problems, counts the
 * rest and cuts names short. No timing is asserted here (it would depend on how busy the machine
 * is): the size of the answer and of its problem list are.
 *
 * Bodies over about 64 KiB are refused before any argument is read (a 413 from
 * the body limit), so the full-size attacks accept that answer too; the ~60 KiB
 * ones always reach the argument reader.
 */
describe('one call cannot cost seconds of CPU: problems are bounded, names cut short', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let base: string;
  let auth: Record<string, string> = {};

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    await migrate(t.runtime.sql);
    auth = await apiKeyHeaders(t.runtime);
    app = await buildApp(t.runtime);
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app?.close();
    await deleteRateKeys(t.runtime, t.config.INDEX_PREFIX);
    await t.teardown();
  });

  const call = (args: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'search_certificates', arguments: args },
  });
  /** `count` unknown argument names, short ones as an attacker packs them. */
  const names = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [i.toString(36), 1]));

  interface Answer {
    status: number;
    bytes: number;
    /** The tool error's REST envelope, when the call was answered. */
    body?: ErrorBody;
    text?: string;
  }

  async function send(args: Record<string, unknown>): Promise<Answer> {
    const res = await postMcp(base, call(args), auth);
    const raw = await res.text();
    if (res.status !== 200) return { status: res.status, bytes: raw.length };
    const { result } = JSON.parse(raw) as { result: { isError: boolean; content: { text: string }[] } };
    expect(result.isError).toBe(true);
    return { status: 200, bytes: raw.length, text: result.content[0]!.text, body: JSON.parse(result.content[1]!.text) as ErrorBody };
  }

  function expectBounded(answer: Answer, unknownNames: number) {
    const { issues, more_issues } = answer.body!.error.details as { issues: { parameter: string }[]; more_issues?: number };
    expect(issues).toHaveLength(Math.min(unknownNames, MAX_ISSUES));
    expect(more_issues ?? 0).toBe(Math.max(0, unknownNames - MAX_ISSUES));
    expect(answer.body!.error.message).toMatch(new RegExp(`\\(and ${unknownNames - 1} more problems\\)$`));
    expect(answer.text!.split('\n')).toHaveLength(1 + issues.length + (unknownNames > MAX_ISSUES ? 1 : 0));
    expect(answer.text).toMatch(new RegExp(`- and ${unknownNames - MAX_ISSUES} more problems$`));
  }

  it('~60 KiB of unknown argument names: ten problems and a count, a few KiB of answer', async () => {
    const count = 6_500;
    expect(JSON.stringify(call(names(count))).length).toBeLessThan(62 * 1024);
    const answer = await send(names(count));
    expect(answer.status).toBe(200);
    expectBounded(answer, count);
    // It was 2.8 MiB: every name with the whole list of accepted names.
    expect(answer.bytes).toBeLessThan(8 * 1024);
  });

  it('100,000 unknown argument names (868 KiB): refused by size or answered with ten problems, never 35 MiB', async () => {
    const answer = await send(names(100_000));
    expect([200, 413]).toContain(answer.status);
    if (answer.status === 200) expectBounded(answer, 100_000);
    expect(answer.bytes).toBeLessThan(8 * 1024);
  });

  it('one enormous argument name: echoed as 64 characters and "…", no did-you-mean search', async () => {
    for (const length of [60 * 1024, 1_000_000]) {
      const name = `limit${'x'.repeat(length)}`;
      const answer = await send({ [name]: 1 });
      expect([200, 413]).toContain(answer.status);
      if (length < 64 * 1024) expect(answer.status).toBe(200);
      if (answer.status === 200) {
        expect(answer.body!.error.details).toEqual({
          issues: [{ parameter: `${name.slice(0, 64)}…`, message: expect.stringMatching(/^unknown parameter; accepted: /) }],
        });
        expect(answer.text).toBe(
          `Invalid arguments for search_certificates:\n- ${name.slice(0, 64)}…: ${answer.body!.error.details!.issues![0]!.message}`,
        );
      }
      expect(answer.bytes).toBeLessThan(2 * 1024);
    }
  });

  it('one enormous tool name is echoed cut short too', async () => {
    const res = await postMcp(
      base,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x'.repeat(60 * 1024), arguments: {} } },
      auth,
    );
    const raw = await res.text();
    expect(raw.length).toBeLessThan(1024);
    expect(raw).toContain(`unknown tool \\"${'x'.repeat(64)}…\\"`);
  });

  it('REST: thousands of unknown query parameters and one enormous name get the same bounded 400', async () => {
    const query = Array.from({ length: 2_800 }, (_, i) => `${i.toString(36)}=1`).join('&');
    const many = await fetch(new URL(`/api/v1/certificates/search?${query}`, base), { headers: auth });
    expect(many.status).toBe(400);
    const manyRaw = await many.text();
    // It was 549 KiB.
    expect(manyRaw.length).toBeLessThan(8 * 1024);
    const manyBody = JSON.parse(manyRaw) as ErrorBody;
    expect(manyBody.error.details).toMatchObject({ more_issues: 2_800 - MAX_ISSUES });
    expect(manyBody.error.details?.issues).toHaveLength(MAX_ISSUES);

    const name = `limit${'x'.repeat(15 * 1024)}`;
    const one = await fetch(new URL(`/api/v1/certificates/search?${name}=1`, base), { headers: auth });
    expect(one.status).toBe(400);
    const oneBody = (await one.json()) as ErrorBody;
    expect(oneBody.error.details?.issues).toEqual([
      { parameter: `${name.slice(0, 64)}…`, message: expect.not.stringMatching(/did you mean/) },
    ]);

    const typo = (await (await fetch(new URL('/api/v1/certificates/search?limmit=3', base), { headers: auth })).json()) as ErrorBody;
    expect(typo.error.details?.issues?.[0]?.message).toMatch(/^unknown parameter \(did you mean limit\?\)/);
  });

  it('REST: a single-valued parameter given several values says that it takes one', async () => {
    const cases: [string, string, string][] = [
      [
        '/api/v1/certificates/counts?county=miami-dade,broward',
        'county',
        'takes one county slug, not several (given 2: miami-dade, broward)',
      ],
      ['/api/v1/certificates/counts?tax_year=2023&tax_year=2024', 'tax_year', 'takes one tax year, not several (given 2: 2023, 2024)'],
      ['/api/v1/sources?county=alachua,duval', 'county', 'takes one county slug, not several (given 2: alachua, duval)'],
      [
        '/api/v1/certificate-sales/search?sale_after=2024-01-01,2024-02-01',
        'sale_after',
        'takes one date, not several (given 2: 2024-01-01, 2024-02-01)',
      ],
    ];
    for (const [url, parameter, message] of cases) {
      const res = await fetch(new URL(url, base), { headers: auth });
      expect(res.status, url).toBe(400);
      const body = (await res.json()) as ErrorBody;
      expect(body.error.details?.issues, url).toEqual([{ parameter, message }]);
      expect(body.error.message).toBe(`${parameter}: ${message}`);
    }
  });
});
