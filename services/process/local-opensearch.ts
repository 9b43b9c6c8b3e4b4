import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Config, envWith } from '../config.ts';
import { opensearchNodes } from '../engine/client.ts';

const scripts = fileURLToPath(new URL('../../scripts/opensearch/', import.meta.url));

/** True when an OpenSearch node answers a cluster-health request at url within 2 s. */
export async function opensearchAnswers(url: string): Promise<boolean> {
  try {
    // A cluster's list answers when its first node does; the client itself goes round them all.
    const res = await fetch(`${opensearchNodes(url)[0]}/_cluster/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

function run(script: string, config: Pick<Config, 'OPENSEARCH_PORT'>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [`${scripts}${script}`], {
      stdio: ['ignore', process.stderr, process.stderr],
      env: envWith({ OPENSEARCH_PORT: String(config.OPENSEARCH_PORT) }),
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`scripts/opensearch/${script} exited with ${code}`))));
  });
}

/**
 * Starts the development node (scripts/opensearch) unless one already answers.
 * Returns a stop function that stops it only if this call started it.
 */
export async function ensureLocalOpenSearch(config: Pick<Config, 'OPENSEARCH_PORT' | 'OPENSEARCH_URL'>) {
  if (await opensearchAnswers(config.OPENSEARCH_URL)) return { started: false, stop: async () => {} };
  await run('start.sh', config);
  return { started: true, stop: () => run('stop.sh', config) };
}
