import { spawn } from 'node:child_process';
import { join } from 'node:path';

const scripts = new URL('../../scripts/opensearch/', import.meta.url).pathname;

/**
 * Runs scripts/opensearch/<script> (start.sh, stop.sh) as a user would, with OPENSEARCH_URL
 * cleared so the script manages its own node, and collects what it printed.
 */
export function runOpenSearchScript(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [join(scripts, script)], {
      env: { ...process.env, OPENSEARCH_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
