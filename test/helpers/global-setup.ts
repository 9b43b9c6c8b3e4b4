import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { opensearchAnswers } from '../../services/cli/local-opensearch.ts';

/**
 * Integration tests talk to a real OpenSearch node. When OPENSEARCH_URL is not
 * set, the local node under scripts/opensearch is started (a no-op when it
 * already answers) and stopped again afterwards only if this run started it.
 */
const port = process.env.OPENSEARCH_PORT ?? '9200';

export default async function setup(project: TestProject) {
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
  return () => {
    if (startedHere)
      execFileSync('bash', ['scripts/opensearch/stop.sh'], {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, OPENSEARCH_PORT: port },
      });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    opensearchUrl: string;
  }
}
