import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { startWebhookWorker } from '../../indexer/webhooks/worker.ts';
import type { Config } from '../../services/config.ts';
import type { CertificateRecord } from '../../services/domain/records.ts';
import { enqueueFiles } from '../../services/process/ingest-runner.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from './access.ts';
import { alachuaJob, writeAlachuaFile } from './event-files.ts';
import type { Receiver } from './webhook-receiver.ts';

/**
 * Two clients of the real API that set up what alerts them (saved searches, portfolios, webhook
 * endpoints) over REST and hear of Alachua county files sent through the real queue and worker:
 * the stage of the alert tests. A webhook worker with quick retries delivers their endpoints'
 * events; the receivers a test starts are closed with the rest.
 */

const FAST: Partial<Config> = { WEBHOOK_RETRY_SCHEDULE: [150, 300, 450], WEBHOOK_TIMEOUT_MS: 2000, WEBHOOK_POLL_MS: 25 };

export type Method = 'GET' | 'POST' | 'DELETE';

export interface AlertClients {
  t: AccessTestApp;
  /** The two clients' keys (Growth plans). */
  a: string;
  b: string;
  receivers: Receiver[];
  call(key: string, method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  /** The client's whole feed from the start, through the API. */
  feed<E>(key: string): Promise<E[]>;
  /** A county file of these records, ingested to the end. */
  ingest(records: CertificateRecord[], name: string): Promise<void>;
  close(): Promise<void>;
}

export async function openAlertClients(fileUrl: string): Promise<AlertClients> {
  const t = await openAccessTestApp(fileUrl);
  const dir = mkdtempSync(join(tmpdir(), 'taxcert-alerts-'));
  const worker = startWebhookWorker({ ...t.runtime, config: { ...t.runtime.config, ...FAST } }, { concurrency: 8 });
  const a = (await t.client('growth')).key;
  const b = (await t.client('growth')).key;
  const receivers: Receiver[] = [];
  const call = (key: string, method: Method, url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    t,
    a,
    b,
    receivers,
    call,
    async feed<E>(key: string) {
      const res = await call(key, 'GET', '/api/v1/events?limit=500');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as E[];
    },
    async ingest(records, name) {
      const [outcome] = await enqueueFiles(t.runtime, [alachuaJob(await writeAlachuaFile(dir, name, records))], { wait: true });
      expect(outcome?.status, outcome?.error).toBe('succeeded');
    },
    async close() {
      await worker.close();
      for (const r of receivers) await r.close();
      rmSync(dir, { recursive: true, force: true });
      await t.close();
    },
  };
}
