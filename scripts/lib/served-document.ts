import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../services/api/app.ts';
import { OPENAPI_PATH } from '../../services/api/openapi.ts';
import { loadConfig } from '../../services/config.ts';
import { openRuntime } from '../../services/process/runtime.ts';

/**
 * The OpenAPI document exactly as the app serves it, from an app built in-process on a
 * throwaway SQLite file. Serving the document reads neither the engine nor Redis, so their
 * addresses point nowhere and nothing is started. Both clients are generated from it.
 */
export async function servedDocument<Document>(): Promise<Document> {
  const dir = mkdtempSync(join(tmpdir(), 'served-document-'));
  const config = loadConfig({
    NODE_ENV: 'development',
    DATABASE_PATH: join(dir, 'taxcert.db'),
    LOG_LEVEL: 'silent',
    OPENSEARCH_URL: 'http://127.0.0.1:9',
    REDIS_URL: 'redis://127.0.0.1:9',
  });
  const runtime = await openRuntime(config, { name: 'served-document' });
  try {
    const app = await buildApp(runtime);
    try {
      const answer = await app.inject({ method: 'GET', url: OPENAPI_PATH });
      if (answer.statusCode !== 200) throw new Error(`${OPENAPI_PATH} answered ${answer.statusCode}: ${answer.body}`);
      return answer.json() as Document;
    } finally {
      await app.close();
    }
  } finally {
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
