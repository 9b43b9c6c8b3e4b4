import type { Client } from '@opensearch-project/opensearch';
import { Agent, request as httpRequest } from 'node:http';
import { POSITION_LIMITS } from '../../services/api/writes/limits.ts';
import { percentile } from './percentile.ts';

/**
 * bench:api's portfolio figures (targets on the 1M set): a portfolio of 10,000 positions across
 * eight counties imported in one request (target under 10 s), its summary (p50 under 150 ms) and
 * a page of its positions (under 100 ms), and the same reads of a portfolio following the largest
 * holder group one portfolio may follow (PORTFOLIO_GROUP_MAX, 100,000 by default; the largest of all,
 * when larger, must be refused with 403 limit_reached). Each read is timed 21 times after one
 * untimed call; the first call of each portfolio (the engine read before the market snapshot
 * holds it) is printed too.
 */

/** The most certificates a followed group may hold on the enterprise plan (the bench's key), the plan's own limit. */
const FOLLOW_LIMIT = POSITION_LIMITS.enterprise;

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

interface Answer {
  status: number;
  body: string;
}

function call(base: string, headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      `${base}${path}`,
      { method, agent, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const round = (x: number) => Math.round(x * 10) / 10;

/** A search with a body the client's types do not spell (aggregations). */
const searchBody = (client: Client, index: string, body: object) => client.search({ index, body: body as never });

/** 10,000 certificates of the eight counties with the most, as a customer's import lines. */
async function holdings(client: Client, index: string): Promise<{ county: string; certificate_number: string; tax_year: number }[]> {
  const counties = await searchBody(client, index, { size: 0, aggs: { c: { terms: { field: 'county_slug', size: 8 } } } });
  const slugs = (counties.body.aggregations as { c: { buckets: { key: string }[] } }).c.buckets.map((b) => b.key);
  const lines: { county: string; certificate_number: string; tax_year: number }[] = [];
  for (const slug of slugs) {
    const res = await searchBody(client, index, {
      size: 1250,
      query: { term: { county_slug: slug } },
      sort: [{ id_order: 'asc' }],
      _source: ['county_slug', 'certificate_number', 'tax_year'],
    });
    for (const h of res.body.hits.hits as { _source: { county_slug: string; certificate_number: string; tax_year: number } }[])
      lines.push({ county: h._source.county_slug, certificate_number: h._source.certificate_number, tax_year: h._source.tax_year });
  }
  return lines.slice(0, 10_000);
}

interface Group {
  id: string;
  certificates: number;
}

/** The largest holder group, and the largest that a portfolio may follow. */
async function largestGroups(client: Client, index: string): Promise<{ largest: Group; followable: Group }> {
  const res = await searchBody(client, index, { size: 0, aggs: { g: { terms: { field: 'holder_group_id', size: 200 } } } });
  const groups = (res.body.aggregations as { g: { buckets: { key: string; doc_count: number }[] } }).g.buckets.map((b) => ({
    id: b.key,
    certificates: b.doc_count,
  }));
  const followable = groups.find((g) => g.certificates <= FOLLOW_LIMIT);
  if (!followable) throw new Error(`none of the 200 largest holder groups holds ${FOLLOW_LIMIT} certificates or fewer`);
  return { largest: groups[0]!, followable };
}

async function timed(f: () => Promise<Answer>, times: number): Promise<{ first: number; p50: number; max: number }> {
  const once = async () => {
    const t = performance.now();
    const answer = await f();
    if (answer.status !== 200) throw new Error(`answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    return performance.now() - t;
  };
  const first = await once();
  const ms: number[] = [];
  for (let i = 0; i < times; i++) ms.push(await once());
  return { first: round(first), p50: round(percentile(ms, 50)), max: round(Math.max(...ms)) };
}

export async function portfolioCosts(
  client: Client,
  index: string,
  base: string,
  headers: Record<string, string>,
): Promise<Record<string, unknown>> {
  const api = (method: string, path: string, body?: unknown) => call(base, headers, method, path, body);
  console.log('\nportfolios (targets: import of 10,000 lines < 10 s, summary p50 < 150 ms, a page < 100 ms)');
  const lines = await holdings(client, index);
  const made = await api('POST', '/api/v1/portfolios', { name: 'bench book' });
  if (made.status !== 201) throw new Error(`portfolio not made: ${made.status} ${made.body}`);
  const book = JSON.parse(made.body).data.id as string;
  const started = performance.now();
  const imported = await api('POST', `/api/v1/portfolios/${book}/positions`, { positions: lines });
  const importSeconds = round((performance.now() - started) / 1000);
  const report = JSON.parse(imported.body).data as { created: number; rejected: number };
  console.log(`import of ${lines.length} lines: ${importSeconds} s (${imported.status}; ${JSON.stringify(report).slice(0, 120)})`);

  const { largest, followable: group } = await largestGroups(client, index);
  if (largest.certificates > FOLLOW_LIMIT) {
    const refused = await api('POST', '/api/v1/portfolios', { name: 'bench largest', follow_holder_group: largest.id });
    const code = refused.status === 403 ? (JSON.parse(refused.body).error.code as string) : '';
    if (code !== 'limit_reached')
      throw new Error(`following the largest group was not refused: ${refused.status} ${refused.body.slice(0, 300)}`);
    console.log(`largest holder group (${largest.certificates} certificates): following it refused, 403 ${code}`);
  }
  const followed = await api('POST', '/api/v1/portfolios', { name: 'bench group', follow_holder_group: group.id });
  if (followed.status !== 201) throw new Error(`group portfolio not made: ${followed.status} ${followed.body}`);
  const groupBook = JSON.parse(followed.body).data.id as string;

  const out: Record<string, unknown> = {
    portfolioLines: lines.length,
    importSeconds,
    largestGroupCertificates: largest.certificates,
    followedGroupCertificates: group.certificates,
  };
  for (const [label, id] of [
    ['10,000 positions', book],
    [`largest followable holder group (${group.certificates} certificates)`, groupBook],
  ] as const) {
    const summary = await timed(() => api('GET', `/api/v1/portfolios/${id}/summary`), 21);
    const byDeadline = await timed(() => api('GET', `/api/v1/portfolios/${id}/positions?sort=next_deadline_asc&limit=100`), 21);
    const byPayoff = await timed(() => api('GET', `/api/v1/portfolios/${id}/positions?sort=payoff_desc&limit=100&offset=500`), 21);
    console.log(
      `${label}: summary p50 ${summary.p50} ms (max ${summary.max}, first ${summary.first}); ` +
        `page by next deadline p50 ${byDeadline.p50} ms (max ${byDeadline.max}, first ${byDeadline.first}); ` +
        `page by payoff p50 ${byPayoff.p50} ms (max ${byPayoff.max})`,
    );
    const key = id === book ? 'book' : 'group';
    out[`${key}SummaryP50Ms`] = summary.p50;
    out[`${key}SummaryFirstMs`] = summary.first;
    out[`${key}PageP50Ms`] = byDeadline.p50;
    out[`${key}PayoffPageP50Ms`] = byPayoff.p50;
  }
  return out;
}
