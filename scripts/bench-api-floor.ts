/**
 * The floor of bench:api (`--floor`), never a product: a bare node:http server around the
 * same certificate read functions, parameter validator and envelopes the API uses, with
 * no Fastify, no authentication, no rate limit and no ledger. What it costs over the
 * engine is the cost of one more process and HTTP hop on this machine; what the API costs
 * over it is everything the product adds to that hop.
 *
 * With FLOOR_ACCESS=1 (`--access-floor`) the same hop also runs the contract's access layer,
 * the API's own functions in the API's order (services/api/access/register.ts): the key's
 * lookup, the client's requests in flight, the Redis window, the credit charged before the
 * answer, the refund of a failure. Between the two floors lies what those layers cost; between
 * this one and the API, what Fastify and the routes' plumbing cost.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { z } from 'zod';
import { type Admission, createAccess } from '../services/api/access/access.ts';
import { listEnvelope, objectEnvelope } from '../services/api/envelope.ts';
import { parseQueryString } from '../services/api/params/query-string.ts';
import { ByParcelParams, CertificateSearchParams } from '../services/api/routes/certificates/params.ts';
import { readByParcel, readCertificate, readCertificateSearch } from '../services/api/routes/certificates/read.ts';
import { validatorCompiler } from '../services/api/validation.ts';
import { loadConfig } from '../services/config.ts';
import { openRuntime } from '../services/process/runtime.ts';

const runtime = await openRuntime(loadConfig(process.env), { name: 'bench-api-floor' });
const deps = { opensearch: runtime.opensearch, paging: runtime.paging, config: runtime.config, registry: runtime.registry };
const access = process.env.FLOOR_ACCESS === '1' ? createAccess(runtime) : null;

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
function send(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { ...extra, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

/** The certificate reads, as the API's routes answer them. */
async function read(path: string, qs: string, id: string): Promise<{ status: number; body: unknown }> {
  const query = parseQueryString(qs);
  if (path === '/api/v1/certificates/search')
    return { status: 200, body: listEnvelope(await readCertificateSearch(deps, searchParams(query)), id) };
  if (path === '/api/v1/certificates/by-parcel')
    return { status: 200, body: listEnvelope(await readByParcel(deps, parcelParams(query)), id) };
  const one = /^\/api\/v1\/certificates\/([^/]+)$/.exec(path);
  if (one) return { status: 200, body: objectEnvelope(await readCertificate(deps, { id: one[1]! }), id) };
  return { status: 404, body: { error: { code: 'not_found', message: `the floor serves no ${path}`, request_id: id } } };
}

/** read() behind the access layer, in register.ts's order: a refusal is answered 500 here (the benchmark's key is never refused). */
async function admitted(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  qs: string,
  id: string,
): Promise<{ status: number; body: unknown; headers: Record<string, string> }> {
  const layer = access!;
  const principal = await layer.authenticate(req.headers);
  layer.hold(principal, res);
  const asked = { surface: 'rest', csv: false, charge: true } as const;
  let admission: Promise<Admission>;
  if (layer.mayOverlap(principal, asked)) {
    admission = new Promise<Admission>((resolve) => setImmediate(() => resolve(layer.admit(principal, asked, id))));
    admission.catch(() => undefined);
  } else {
    admission = Promise.resolve(await layer.admit(principal, asked, id));
  }
  const answer = await read(path, qs, id).catch((err: unknown) => ({
    status: 500,
    body: { error: { code: 'internal_error', message: String(err), request_id: id } },
  }));
  const { headers, reservation } = await admission;
  await layer.settle({ reservation }, answer.status < 300);
  return { ...answer, headers };
}

createServer(async (req, res) => {
  const [path = '/', qs = ''] = (req.url ?? '/').split('?');
  const id = `req_floor${n++}`;
  try {
    if (path === '/healthz') return send(res, 200, { status: 'ok' });
    if (access) {
      const { status, body, headers } = await admitted(req, res, path, qs, id);
      return send(res, status, body, headers);
    }
    const { status, body } = await read(path, qs, id);
    return send(res, status, body);
  } catch (err) {
    return send(res, 500, { error: { code: 'internal_error', message: String(err), request_id: id } });
  }
}).listen(runtime.config.PORT, runtime.config.HOST);

// Exits on SIGTERM like `taxcert serve`, so a --cpu-prof run writes its profile.
process.once('SIGTERM', () => process.exit(143));
