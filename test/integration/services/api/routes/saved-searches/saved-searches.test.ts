// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateCountyCoverage } from '../../../../../../services/control/ingest/counties.ts';
import { SAVED_SEARCH_LIMITS } from '../../../../../../services/api/writes/limits.ts';
import { apiKeyHeaders } from '../../../../../helpers/access.ts';
import { type CertificatesApi, openCertificatesApi } from '../certificates/seed.ts';

// A client saves certificate searches through the API alone, and their matches are the search's own answer.

let api: CertificatesApi;
let owner: { authorization: string };
beforeAll(async () => {
  api = await openCertificatesApi(import.meta.url);
  owner = await apiKeyHeaders(api.t.runtime, 'growth');
});
afterAll(async () => api?.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (auth: { authorization: string }, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  api.app.inject({ method, url, headers: { ...auth, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
const usage = async (auth: { authorization: string }) =>
  (await call(auth, 'GET', '/api/v1/account/usage')).json().data.events_count as number;
const create = async (auth: { authorization: string }, params: Record<string, unknown>, name = 'a search') => {
  const res = await call(auth, 'POST', '/api/v1/saved-searches', { name, params });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; name: string; params: Record<string, unknown> };
};
const issues = (res: { json(): { error: { details: { issues: { parameter: string; message: string }[] } } } }) =>
  res.json().error.details.issues;

describe('saved searches through the API', () => {
  it('creates, lists, reads, changes and deletes, each for 1 credit; deleting twice is a 404', async () => {
    const auth = await apiKeyHeaders(api.t.runtime, 'growth');
    let credits = await usage(auth);
    const made = await call(auth, 'POST', '/api/v1/saved-searches', {
      name: '  Broward, big  ',
      params: { county: 'broward,alachua', face_min: '500', redeemed: 'false', tax_year: [2022, '2023'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const created = made.json().data;
    expect(created).toMatchObject({
      name: 'Broward, big',
      params: { county: ['broward', 'alachua'], face_min: 500, redeemed: false, tax_year: [2022, 2023] },
    });
    expect(created.id).toMatch(/^ss_[A-Za-z0-9_-]{16}$/);
    expect(created.created_at).toBe(created.updated_at);
    expect(made.json().meta.request_id).toBe(made.headers['x-request-id']);
    const second = await create(auth, {}, 'the whole market');
    expect(second.params).toEqual({});

    const list = await call(auth, 'GET', '/api/v1/saved-searches');
    expect(list.json().data.map((s: { id: string }) => s.id)).toEqual([created.id, second.id]);
    expect(list.json().pagination).toEqual({ limit: 100, offset: 0, total: 2, has_more: false });
    const paged = await call(auth, 'GET', '/api/v1/saved-searches?limit=1&offset=1');
    expect(paged.json().data.map((s: { id: string }) => s.id)).toEqual([second.id]);
    const one = await call(auth, 'GET', `/api/v1/saved-searches/${created.id}`);
    expect(one.json().data).toEqual(created);

    const renamed = await call(auth, 'PATCH', `/api/v1/saved-searches/${created.id}`, { name: 'Broward' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Broward', params: created.params });
    const refiltered = await call(auth, 'PATCH', `/api/v1/saved-searches/${created.id}`, { params: { status: 'sold' } });
    expect(refiltered.json().data).toMatchObject({ name: 'Broward', params: { status: ['sold'] } });

    const gone = await call(auth, 'DELETE', `/api/v1/saved-searches/${created.id}`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json().data).toEqual({ id: created.id, deleted: true });
    credits += 8;
    expect(await usage(auth)).toBe(credits);
    expect((await call(auth, 'DELETE', `/api/v1/saved-searches/${created.id}`)).statusCode).toBe(404);
    expect((await call(auth, 'GET', `/api/v1/saved-searches/${created.id}`)).statusCode).toBe(404);
    expect((await call(auth, 'GET', `/api/v1/saved-searches/${created.id}/matches`)).statusCode).toBe(404);
  });

  it('/matches answers exactly what /certificates/search answers: rows, order, totals, facets, CSV', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, '', 'limit=7&offset=3'],
      [
        { county: ['broward', 'miami-dade'], status: 'sold,redeemed' },
        'county=broward,miami-dade&status=sold,redeemed',
        'sort=face_desc&limit=10',
      ],
      [{ face_min: 100, face_max: '5000', tax_year: '2022' }, 'face_min=100&face_max=5000&tax_year=2022', 'sort=face_asc&offset=5&limit=4'],
      [{ query: 'smith', redeemed: false }, 'query=smith&redeemed=false', 'facets=county,status,tax_year,vendor,redeemed&limit=3'],
      [{ holder: 'acme tax fund' }, 'holder=acme tax fund', 'sort=year_newest&facets=county'],
      [{ rate_min: 0, rate_max: '18' }, 'rate_min=0&rate_max=18', 'sort=rate_desc&limit=5&expand=parcel'],
    ];
    for (const [params, filters, answer] of cases) {
      const { id } = await create(owner, params);
      for (const format of ['', '&format=csv']) {
        const matches = await call(owner, 'GET', `/api/v1/saved-searches/${id}/matches?${answer}${format}`);
        const search = await call(owner, 'GET', `/api/v1/certificates/search?${[filters, answer].filter(Boolean).join('&')}${format}`);
        expect(matches.statusCode, matches.body).toBe(200);
        expect(search.statusCode, search.body).toBe(200);
        expect(matches.headers['content-type']).toBe(search.headers['content-type']);
        if (format) {
          expect(matches.body).toBe(search.body);
          continue;
        }
        const [m, s] = [matches.json(), search.json()];
        expect(s.pagination.total, answer).toBeGreaterThan(0);
        expect({ ...m, meta: undefined }).toEqual({ ...s, meta: undefined });
      }
    }
  });

  it('saves the map filters; distance_asc on /matches needs a saved near, else a 400 naming sort', async () => {
    const near = await create(owner, { near: '26.12,-80.14', radius: '3mi', homestead: false, just_value_min: 150001 });
    const nearest = await call(owner, 'GET', `/api/v1/saved-searches/${near.id}/matches?sort=distance_asc&format=geojson`);
    expect(nearest.statusCode, nearest.body).toBe(200);
    expect(nearest.json().type).toBe('FeatureCollection');
    const box = await create(owner, { bbox: '-80.3,25.7,-80.1,25.9', polygon: '25.7,-80.3;25.9,-80.3;25.9,-80.1' });
    const refused = await call(owner, 'GET', `/api/v1/saved-searches/${box.id}/matches?sort=distance_asc`);
    expect(refused.statusCode).toBe(400);
    expect(issues(refused).map((i) => i.parameter)).toEqual(['sort']);
    const noRadius = await call(owner, 'POST', '/api/v1/saved-searches', { name: 'x', params: { near: '26,-80' } });
    expect(noRadius.statusCode).toBe(400);
    expect(issues(noRadius).map((i) => i.parameter)).toEqual(['params.radius']);
  });

  it('/matches costs 1 credit and refuses a filter in its query string by name', async () => {
    const auth = await apiKeyHeaders(api.t.runtime, 'growth');
    const { id } = await create(auth, { county: 'duval' });
    const before = await usage(auth);
    expect((await call(auth, 'GET', `/api/v1/saved-searches/${id}/matches`)).statusCode).toBe(200);
    expect(await usage(auth)).toBe(before + 1);
    const bad = await call(auth, 'GET', `/api/v1/saved-searches/${id}/matches?county=broward&sort=cheap`);
    expect(bad.statusCode).toBe(400);
    expect(
      issues(bad)
        .map((i) => i.parameter)
        .sort(),
    ).toEqual(['county', 'sort']);
  });

  it('keeps answering for a county whose coverage moves away from certificate_level', async () => {
    const auth = await apiKeyHeaders(api.t.runtime, 'growth');
    const loaded = await updateCountyCoverage(api.t.runtime.sql, 'duval', { certificateCount: 60 });
    expect(loaded.coverageStatus).toBe('certificate_level');
    const { id } = await create(auth, { county: 'duval', status: 'sold' });
    const before = (await call(auth, 'GET', `/api/v1/saved-searches/${id}/matches`)).json();
    expect(before.pagination.total).toBeGreaterThan(0);
    const moved = await updateCountyCoverage(api.t.runtime.sql, 'duval', { certificateCount: 0 });
    expect(moved.coverageStatus).not.toBe('certificate_level');
    const after = await call(auth, 'GET', `/api/v1/saved-searches/${id}/matches`);
    expect(after.statusCode).toBe(200);
    expect(after.json().data).toEqual(before.data);
    expect((await call(auth, 'PATCH', `/api/v1/saved-searches/${id}`, { name: 'Duval, still sold' })).statusCode).toBe(200);
  });

  it('names each bad param with the words search uses, and each bad name', async () => {
    const search = await call(owner, 'GET', '/api/v1/certificates/search?face_min=-3&county=atlantis&sale_after=2024-02-30&colour=red');
    const saved = await call(owner, 'POST', '/api/v1/saved-searches', {
      name: 'bad',
      params: { face_min: -3, county: 'atlantis', sale_after: '2024-02-30', colour: 'red' },
    });
    expect(saved.statusCode).toBe(400);
    expect(search.statusCode).toBe(400);
    // The same words, but a saved search's accepted names are the filters alone.
    const words = (list: { parameter: string; message: string }[]) =>
      list.map((i) => `${i.parameter.replace(/^params\./, '')}: ${i.message.replace(/; accepted: .*/, '')}`).sort();
    expect(issues(saved).every((i) => i.parameter.startsWith('params.'))).toBe(true);
    expect(words(issues(saved))).toEqual(words(issues(search)));
    expect(issues(saved).find((i) => i.parameter === 'params.colour')!.message).toBe(
      'unknown parameter; accepted: query, county, status, tax_year, holder, holder_group, vendor, face_min, face_max, sale_after, sale_before, redeemed, deed_eligible_by, expires_before, rate_min, rate_max, bbox, near, radius, polygon, homestead, just_value_min, just_value_max, use_code, zip, city, owner_type',
    );
    // An unknown county is a 400 as on search, even when the shape is fine.
    const county = await call(owner, 'POST', '/api/v1/saved-searches', { name: 'x', params: { county: 'atlantis' } });
    expect(issues(county)).toEqual([{ parameter: 'params.county', message: expect.stringContaining('unknown county slug "atlantis"') }]);

    const answerParams = await call(owner, 'POST', '/api/v1/saved-searches', {
      name: 'x',
      params: { county: 'broward', sort: 'face_desc', limit: 5, offset: 0, facets: 'county', format: 'csv' },
    });
    expect(answerParams.statusCode).toBe(400);
    expect(
      issues(answerParams)
        .map((i) => i.parameter)
        .sort(),
    ).toEqual(['params.facets', 'params.format', 'params.limit', 'params.offset', 'params.sort'].sort());
    expect(issues(answerParams)[0]!.message).toMatch(/not part of a saved search/);

    for (const [body, parameter] of [
      [{ name: '', params: {} }, 'name'],
      [{ name: '   ', params: {} }, 'name'],
      [{ name: 'x'.repeat(121), params: {} }, 'name'],
      [{ name: 'a\u0000b', params: {} }, 'name'],
      [{ name: 'x', params: { query: 'a\u0007b' } }, 'params.query'],
      [{ params: {} }, 'name'],
      [{ name: 'x' }, 'params'],
      [{ name: 'x', params: ['county'] }, 'params'],
      [{ name: 'x', params: {}, colour: 1 }, 'colour'],
    ] as const) {
      const res = await call(owner, 'POST', '/api/v1/saved-searches', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(issues(res).map((i) => i.parameter)).toContain(parameter);
    }
    expect((await call(owner, 'POST', '/api/v1/saved-searches', { name: 'x'.repeat(120), params: {} })).statusCode).toBe(201);

    const { id } = await create(owner, { county: 'broward' });
    const patch = await call(owner, 'PATCH', `/api/v1/saved-searches/${id}`, { params: { face_max: 'lots' } });
    expect(issues(patch)[0]!.parameter).toBe('params.face_max');
    expect((await call(owner, 'PATCH', `/api/v1/saved-searches/${id}`, {})).statusCode).toBe(400);
    expect((await call(owner, 'GET', `/api/v1/saved-searches/${id}`)).json().data.params).toEqual({ county: ['broward'] });
  });

  it('refuses a body over 64 KiB with 413 before reading it', async () => {
    const res = await call(owner, 'POST', '/api/v1/saved-searches', { name: 'big', params: { query: 'x'.repeat(70 * 1024) } });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('refuses a creation past the plan limit with 403 limit_reached; deleting one makes room', async () => {
    const auth = await apiKeyHeaders(api.t.runtime, 'free_trial');
    const limit = SAVED_SEARCH_LIMITS.free_trial;
    const ids: string[] = [];
    for (let i = 0; i < limit; i++) ids.push((await create(auth, {}, `s${i}`)).id);
    const refused = await call(auth, 'POST', '/api/v1/saved-searches', { name: 'one more', params: {} });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: 'limit_reached',
      details: { resource: 'saved_searches', limit, plan: 'free_trial' },
    });
    expect(refused.json().error.message).toMatch(/saved searches.*delete one first/);
    await call(auth, 'DELETE', `/api/v1/saved-searches/${ids[0]}`);
    expect((await call(auth, 'POST', '/api/v1/saved-searches', { name: 'one more', params: {} })).statusCode).toBe(201);
  });

  it('lets concurrent creations pass the limit only as far as it goes', async () => {
    const auth = await apiKeyHeaders(api.t.runtime, 'free_trial');
    const limit = SAVED_SEARCH_LIMITS.free_trial;
    const answers = await Promise.all(
      Array.from({ length: limit * 2 }, (_, i) => call(auth, 'POST', '/api/v1/saved-searches', { name: `s${i}`, params: {} })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([...Array(limit).fill(201), ...Array(limit).fill(403)]);
    expect((await call(auth, 'GET', '/api/v1/saved-searches')).json().pagination.total).toBe(limit);
  });

  it("answers 404 for another client's saved search on every method, and changes nothing", async () => {
    const other = await apiKeyHeaders(api.t.runtime, 'growth');
    const mine = await create(owner, { county: 'alachua' }, 'mine');
    for (const res of await Promise.all([
      call(other, 'GET', `/api/v1/saved-searches/${mine.id}`),
      call(other, 'GET', `/api/v1/saved-searches/${mine.id}/matches`),
      call(other, 'PATCH', `/api/v1/saved-searches/${mine.id}`, { name: 'theirs' }),
      call(other, 'DELETE', `/api/v1/saved-searches/${mine.id}`),
    ])) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    expect((await call(other, 'GET', '/api/v1/saved-searches')).json().data).toEqual([]);
    expect((await call(owner, 'GET', `/api/v1/saved-searches/${mine.id}`)).json().data).toEqual(mine);
  });

  it('replays a POST retried with its Idempotency-Key and creates nothing more; another body is 409', async () => {
    const auth = await apiKeyHeaders(api.t.runtime, 'growth');
    const headers = { 'idempotency-key': 'a7c1f6e0-saved-search' };
    const body = { name: 'retry me', params: { county: 'duval' } };
    const first = await call(auth, 'POST', '/api/v1/saved-searches', body, headers);
    const again = await call(auth, 'POST', '/api/v1/saved-searches', { params: { county: 'duval' }, name: 'retry me' }, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await call(auth, 'GET', '/api/v1/saved-searches')).json().pagination.total).toBe(1);
    const other = await call(auth, 'POST', '/api/v1/saved-searches', { ...body, name: 'another' }, headers);
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('idempotency_conflict');
  });

  it('keeps one of two concurrent PATCHes whole, never a mix', async () => {
    const { id } = await create(owner, { county: 'broward' }, 'start');
    const a = { name: 'A', params: { county: 'alachua', face_min: 1 } };
    const b = { name: 'B', params: { status: 'sold' } };
    await Promise.all([call(owner, 'PATCH', `/api/v1/saved-searches/${id}`, a), call(owner, 'PATCH', `/api/v1/saved-searches/${id}`, b)]);
    const now = (await call(owner, 'GET', `/api/v1/saved-searches/${id}`)).json().data;
    const whole = [
      { name: 'A', params: { county: ['alachua'], face_min: 1 } },
      { name: 'B', params: { status: ['sold'] } },
    ];
    expect(whole).toContainEqual({ name: now.name, params: now.params });
  });
});
