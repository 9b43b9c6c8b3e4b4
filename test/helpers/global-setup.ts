import { execFileSync, spawnSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { opensearchAnswers } from '../../services/process/local-opensearch.ts';
import { ensureLocalRedis } from '../../services/process/local-redis.ts';

/**
 * Integration tests talk to a real OpenSearch node, Redis and PostgreSQL. The test command
 * starts what is installed but not running, as `npm start` and `.ci/run` do, so a newcomer's
 * second command needs nothing else typed:
 * - OpenSearch, when OPENSEARCH_URL is not set: the local node under scripts/opensearch (a no-op
 *   when it already answers), stopped again afterwards only if this run started it;
 * - Redis at REDIS_URL (default 127.0.0.1:6379): redis-server when none answers and it is
 *   installed (services/process/local-redis.ts, npm start's own code), stopped afterwards;
 * - PostgreSQL on 127.0.0.1:5432 (the control-plane tests' second engine): the machine's
 *   cluster, by scripts/postgres/start.sh (as .ci/run); left running, as the system service it is.
 */
const port = process.env.OPENSEARCH_PORT ?? '9200';

export default async function setup(project: TestProject) {
  const redis = await ensureLocalRedis({ REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
  if (redis.started) process.stderr.write(`test setup: started redis-server (pid ${redis.pid}); stopped after the run\n`);
  startPostgres();

  let startedHere = false;
  let url = process.env.OPENSEARCH_URL;
  if (!url) {
    url = `http://127.0.0.1:${port}`;
    if (!(await opensearchAnswers(url))) {
      execFileSync('bash', ['scripts/opensearch/start.sh'], {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, OPENSEARCH_PORT: port },
      });
      startedHere = true;
    }
  }
  project.provide('opensearchUrl', url);
  return async () => {
    if (startedHere)
      execFileSync('bash', ['scripts/opensearch/stop.sh'], {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, OPENSEARCH_PORT: port },
      });
    await redis.stop();
  };
}

/**
 * PostgreSQL when it is installed and not answering; the tests that need it say so themselves
 * when it cannot be started (not installed, no root), so a unit run goes on without it.
 */
function startPostgres(): void {
  const started = spawnSync('bash', ['scripts/postgres/start.sh'], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (started.status !== 0 && started.status !== 3)
    process.stderr.write(`test setup: scripts/postgres/start.sh exited with ${started.status}; the PostgreSQL tests will fail\n`);
}

declare module 'vitest' {
  export interface ProvidedContext {
    opensearchUrl: string;
  }
}
