import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPortfolioDeadlines } from '../../../../indexer/events/portfolio-deadlines.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { followedPositionId } from '../../../../services/domain/position-ids.ts';
import { enqueueFiles } from '../../../../services/process/ingest-runner.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../helpers/access.ts';
import { alachuaCertificates, alachuaJob, writeAlachuaFile } from '../../../helpers/event-files.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

/**
 * A portfolio following a holder group is told of the group's certificates' deadlines as of its
 * written positions: each once, under the position id its reads give it; a certificate it also
 * holds as a written position is told once, as that position; after it stops following, only its
 * written positions are. Alachua 2023 certificates sold 2024-06-01 (holders rotate Acme, Sunshine,
 * Gator by n % 3; 0 and 1 redeemed): Gator holds 2 and 5.
 */

interface DeadlineRow {
  data: { position: { id: string }; certificate: { id: string }; kind: string; date: string; days_left: number };
}

describe('deadline alerts of a followed holder group', () => {
  let t: AccessTestApp;
  let dir: string;
  let key: string;
  let portfolio: string;
  let written = '';
  const id = (n: number) => sampleCertificate({}, n).id;
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const run = (day: string) =>
    recordPortfolioDeadlines(
      { opensearch: t.runtime.opensearch, sql: t.runtime.sql, prefix: t.config.INDEX_PREFIX, parcelBaseUrl: t.config.PARCEL_BASE_URL },
      () => new Date(`${day}T16:00:00.000Z`),
    );
  const alerts = async () => {
    const res = await call('GET', '/api/v1/events?limit=500&type=portfolio.deadline_approaching');
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as DeadlineRow[])
      .map((e) => [e.data.position.id, e.data.certificate.id, e.data.kind, e.data.days_left])
      .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  };

  beforeAll(async () => {
    t = await openAccessTestApp(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'taxcert-group-deadlines-'));
    key = (await t.client('growth')).key;
    const [outcome] = await enqueueFiles(t.runtime, [alachuaJob(await writeAlachuaFile(dir, 'first.csv', alachuaCertificates(6, 2)))], {
      wait: true,
    });
    expect(outcome?.status, outcome?.error).toBe('succeeded');
    const gator = await t.runtime.opensearch.get({ index: aliasName(t.config.INDEX_PREFIX, 'certificates'), id: id(2) });
    const group = (gator.body._source as { holder_group_id: string }).holder_group_id;
    const made = await call('POST', '/api/v1/portfolios', { name: 'Gator watch', follow_holder_group: group });
    expect(made.statusCode, made.body).toBe(201);
    portfolio = made.json().data.id;
    const added = await call('POST', `/api/v1/portfolios/${portfolio}/positions`, { positions: [{ certificate_id: id(5) }] });
    expect(added.statusCode, added.body).toBe(200);
    written = added.json().data.lines[0].position.id;
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('tells each followed certificate once, as the positions list it, and a written one as written', async () => {
    expect(await run('2026-04-01')).toBe(2);
    expect(await run('2026-04-01')).toBe(0);
    expect(await run('2031-03-03')).toBe(2);
    expect(await alerts()).toEqual(
      [
        [followedPositionId(portfolio, id(2)), id(2), 'deed_application_opens', 0],
        [written, id(5), 'deed_application_opens', 0],
        [followedPositionId(portfolio, id(2)), id(2), 'expires', 90],
        [written, id(5), 'expires', 90],
      ].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    );
    // The positions read lists the followed certificate under the id its alerts name.
    const listed = await call('GET', `/api/v1/portfolios/${portfolio}/positions?limit=10`);
    expect((listed.json().data as { id: string }[]).map((p) => p.id)).toContain(followedPositionId(portfolio, id(2)));
  });

  it('tells only the written positions once the portfolio stops following', async () => {
    expect((await call('PATCH', `/api/v1/portfolios/${portfolio}`, { follow_holder_group: null })).statusCode).toBe(200);
    expect(await run('2031-05-12')).toBe(1);
    const last = (await alerts()).filter((a) => a[3] === 20);
    expect(last).toEqual([[written, id(5), 'expires', 20]]);
  });
});
