/**
 * The floor of bench:api (`--floor`), never a product: a bare node:http server around the
 * same certificate read functions, parameter validator and envelopes the API uses, with
 * no Fastify, no authentication, no rate limit and no ledger. What it costs over the
 * engine is the cost of one more process and HTTP hop on this machine; what the API costs
 * over it is everything the product adds to that hop.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { z } from 'zod';
import { listEnvelope, objectEnvelope } from '../services/api/envelope.ts';
import { parseQueryString } from '../services/api/params/query-string.ts';
import { ByParcelParams, CertificateSearchParams } from '../services/api/routes/certificates/params.ts';
import { readByParcel, readCertificate, readCertificateSearch } from '../services/api/routes/certificates/read.ts';
import { validatorCompiler } from '../services/api/validation.ts';
import { loadConfig } from '../services/config.ts';
import { openRuntime } from '../services/runtime.ts';

const runtime = await openRuntime(loadConfig(process.env), { name: 'bench-api-floor' });
const deps = { opensearch: runtime.opensearch, config: runtime.config, registry: runtime.registry };

/** The routes' own query validator (coercion, then the zod schema), outside Fastify. */
function validator<T>(schema: z.ZodType<T>): (query: unknown) => T {
  const validate = validatorCompiler({ schema, method: 'GET', url: '', httpPart: 'querystring' }) as (query: unknown) => {
    value?: T;
    error?: Error;
  };
  return (query) => {
    const { value, error } = validate(query);
    if (error) throw error;
    return value as T;
  };
}
const searchParams = validator(CertificateSearchParams);
const parcelParams = validator(ByParcelParams);

let n = 0;
function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

createServer(async (req, res) => {
  const [path = '/', qs = ''] = (req.url ?? '/').split('?');
  const id = `req_floor${n++}`;
  try {
    if (path === '/healthz') return send(res, 200, { status: 'ok' });
    const query = parseQueryString(qs);
    if (path === '/api/v1/certificates/search') return send(res, 200, listEnvelope(await readCertificateSearch(deps, searchParams(query)), id));
    if (path === '/api/v1/certificates/by-parcel') return send(res, 200, listEnvelope(await readByParcel(deps, parcelParams(query)), id));
    const one = /^\/api\/v1\/certificates\/([^/]+)$/.exec(path);
    if (one) return send(res, 200, objectEnvelope(await readCertificate(deps, { id: one[1]! }), id));
    return send(res, 404, { error: { code: 'not_found', message: `the floor serves no ${path}`, request_id: id } });
  } catch (err) {
    return send(res, 500, { error: { code: 'internal_error', message: String(err), request_id: id } });
  }
}).listen(runtime.config.PORT, runtime.config.HOST);

// Exits on SIGTERM like `taxcert serve`, so a --cpu-prof run writes its profile.
process.once('SIGTERM', () => process.exit(143));
