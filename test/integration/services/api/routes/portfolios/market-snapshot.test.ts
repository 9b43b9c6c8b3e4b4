import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CertificateRecord } from '../../../../../../services/domain/records.ts';
import { enqueueFiles } from '../../../../../../services/process/ingest-runner.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../../helpers/access.ts';
import { alachuaCertificates, alachuaJob, writeAlachuaFile } from '../../../../../helpers/event-files.ts';

/**
 * A portfolio read keeps what it read and computed until the market or the portfolio changes:
 * the answer after an ingest that redeems held certificates, or after a position is deleted, is
 * the new one on the very next read.
 */
describe('a portfolio read across an ingest', () => {
  let t: AccessTestApp;
  let dir: string;
  let key: string;
  const N = 12;
  const ingest = async (records: CertificateRecord[], name: string) => {
    const [outcome] = await enqueueFiles(t.runtime, [alachuaJob(await writeAlachuaFile(dir, name, records))], { wait: true });
    expect(outcome?.status, outcome?.error).toBe('succeeded');
  };
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await openAccessTestApp(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'taxcert-market-snapshot-'));
    key = (await t.client('growth')).key;
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('answers the redemptions of a changed county file on the next read', async () => {
    const records = alachuaCertificates(N);
    await ingest(records, 'first.csv');
    const made = await call('POST', '/api/v1/portfolios', { name: 'Alachua book' });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id as string;
    const lines = records.map((r) => ({ certificate_id: r.id }));
    expect((await call('POST', `/api/v1/portfolios/${id}/positions`, { positions: lines })).statusCode).toBe(200);
    const summary = async () => {
      const res = await call('GET', `/api/v1/portfolios/${id}/summary`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { by_status: Record<string, number> };
    };
    expect((await summary()).by_status.redeemed ?? 0).toBe(0);
    // Read twice: the second is answered from what the first read.
    expect((await summary()).by_status.redeemed ?? 0).toBe(0);

    await ingest(alachuaCertificates(N, 4), 'second.csv');
    expect((await summary()).by_status.redeemed).toBe(4);

    // A position deleted is gone from the next read, the market unchanged.
    const page = await call('GET', `/api/v1/portfolios/${id}/positions?limit=1`);
    const position = page.json().data[0].id as string;
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/portfolios/${id}/positions/${position}`, headers: bearer(key) })).statusCode,
    ).toBe(200);
    expect(((await summary()) as unknown as { positions: number }).positions).toBe(N - 1);
  });
});
