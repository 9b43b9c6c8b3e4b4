import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The rooms of the source tree import one another in one direction, at every depth: a folder's
// subfolders and files never import each other in a loop, and the rules below say which rooms sit
// above which. A module that climbs back up fails here rather than in review. These read every
// relative import (static, bare and dynamic) of services/, indexer/, scripts/ and bin/.

const root = fileURLToPath(new URL('../../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });
}

/** `from './x.ts'`, `import './x.ts'` and `import('./x.ts')`: relative specifiers only. */
const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

interface Edge {
  from: string;
  to: string;
}

/**
 * Every import of one file of the tree by another, as repository paths. A specifier that names no
 * file is not an import (the text of a code sample in a template string, say, which the compiler
 * would otherwise have refused).
 */
function imports(): Edge[] {
  return ['services', 'indexer', 'scripts', 'bin'].flatMap(sources).flatMap((from) =>
    [...readFileSync(join(root, from), 'utf8').matchAll(IMPORT)]
      .map(([, spec]) => relative(root, normalize(join(root, dirname(from), spec!))))
      .filter((to) => existsSync(join(root, to)))
      .map((to) => ({ from, to })),
  );
}

const edges = imports();
const within = (path: string, room: string) => path === room || path.startsWith(`${room}/`);

/**
 * A file's room at depth d: its path cut to d parts, so a file no deeper than d is a room of its
 * own and a deeper one belongs to its folder at depth d. services/ is a shelf of rooms rather than
 * one (the indexer imports services/domain and services/process starts the indexer), so its
 * rooms start one level down: services/domain, services/config.ts, ...
 */
function roomAt(path: string, depth: number): string {
  const parts = path.split('/');
  return parts.slice(0, depth + (parts[0] === 'services' ? 1 : 0)).join('/');
}

const isFile = (room: string) => /\.(ts|js|json)$/.test(room);

/** room -> room -> the first import that makes the arrow, for the failure message. */
function roomGraph(depth: number): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const { from, to } of edges) {
    const [a, b] = [roomAt(from, depth), roomAt(to, depth)];
    if (a === b) continue;
    const out = graph.get(a) ?? new Map<string, string>();
    if (!out.has(b)) out.set(b, `${from} imports ${to}`);
    graph.set(a, out);
  }
  return graph;
}

/** The strongly connected rooms (Tarjan): each set of two or more rooms that reach one another is a loop. */
function loops(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (room: string) => {
    index.set(room, index.size);
    low.set(room, index.get(room)!);
    stack.push(room);
    onStack.add(room);
    for (const next of graph.get(room)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(room, Math.min(low.get(room)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(room, Math.min(low.get(room)!, index.get(next)!));
    }
    if (low.get(room) !== index.get(room)) return;
    const loop: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      onStack.delete(top);
      loop.push(top);
    } while (top !== room);
    if (loop.length > 1) found.push(loop.sort());
  };
  for (const room of graph.keys()) if (!index.has(room)) visit(room);
  return found;
}

const deepest = Math.max(...edges.map(({ from }) => from.split('/').length));
const depths = Array.from({ length: deepest }, (_, i) => i + 1);

/** Imports from files under one of `from` to files under one of `to`, as "a imports b". */
function arrows(from: string[], to: string[], except: string[] = []): string[] {
  return edges
    .filter(({ from: a, to: b }) => from.some((r) => within(a, r)) && to.some((r) => within(b, r)) && !except.some((r) => within(b, r)))
    .map(({ from: a, to: b }) => `${a} imports ${b}`);
}

describe('rooms', () => {
  it.each(depths)('import one another in one direction only at depth %i: no loop between folders', (depth) => {
    const graph = roomGraph(depth);
    const found = loops(graph)
      // Files of one folder that import each other are one room's inside, not rooms in a loop.
      .filter((loop) => !(loop.every(isFile) && new Set(loop.map(dirname)).size === 1))
      .map((loop) => {
        const inside = new Set(loop);
        const why = loop.flatMap((a) =>
          [...(graph.get(a) ?? [])].filter(([b]) => inside.has(b)).map(([b, edge]) => `${a} -> ${b} (${edge})`),
        );
        return `${loop.join(' <-> ')}: ${why.join('; ')}`;
      });
    expect(found).toEqual([]);
  });

  it('scripts/ (benchmarks and one-off writers) is imported by nothing outside it', () => {
    expect(arrows(['services', 'indexer', 'bin'], ['scripts'])).toEqual([]);
  });

  it('nothing imports test code', () => {
    expect(arrows(['services', 'indexer', 'scripts', 'bin'], ['test'])).toEqual([]);
  });

  it('the worker (indexer/) imports neither the tooling nor the CLI, the process assembly, the API or the pages', () => {
    expect(arrows(['indexer'], ['scripts', 'services/cli', 'services/process', 'services/api', 'services/web'])).toEqual([]);
  });

  it('the domain imports no other room but config', () => {
    expect(arrows(['services/domain'], ['services', 'indexer', 'scripts'], ['services/domain', 'services/config.ts'])).toEqual([]);
  });

  it('the CLI is a layer of commands that only bin/ imports', () => {
    expect(arrows(['services', 'indexer', 'scripts'], ['services/cli']).filter((a) => !a.startsWith('services/cli/'))).toEqual([]);
  });

  // The account pages (services/web) are served by the API process but sit on top of it: they reuse
  // the API's read functions and access layer, and the control plane's modules. None of those may
  // reach back into the pages, and the pages never touch the worker.
  it('the account pages sit on the API and the control plane: neither imports them, and they import no indexer code', () => {
    expect(arrows(['services/api', 'services/control', 'services/engine', 'indexer'], ['services/web'])).toEqual([]);
    expect(arrows(['services/web'], ['indexer', 'scripts', 'services/cli'])).toEqual([]);
  });

  it('the generator and the portal formats are product: they import neither the indexer nor the tooling', () => {
    expect(arrows(['services/generator', 'services/formats'], ['indexer', 'scripts'])).toEqual([]);
  });

  it('the engine imports nothing of the API', () => {
    expect(arrows(['services/engine'], ['services/api'])).toEqual([]);
  });

  it('sees the imports it checks (a reader that found none would pass every rule)', () => {
    const seen = (from: string, to: string) => arrows([from], [to]).length > 0;
    expect(seen('bin', 'services/cli')).toBe(true);
    expect(seen('services/cli', 'services/process')).toBe(true);
    expect(seen('services/process', 'indexer')).toBe(true);
    expect(seen('scripts', 'services/process')).toBe(true);
    expect(seen('services/generator', 'services/formats')).toBe(true);
    expect(seen('indexer/adapters', 'services/formats')).toBe(true);
    expect(seen('indexer/certificates', 'indexer/events')).toBe(true);
    expect(seen('services/api/routes', 'services/api/openapi')).toBe(true);
    expect(seen('services/web', 'services/api')).toBe(true);
    // A dynamic import (the API is loaded only by the commands that serve it).
    expect(seen('services/process/api-server.ts', 'services/api/server.ts')).toBe(true);
    // Loops are found: two rooms that import each other make one.
    const loop = new Map([
      ['a', new Map([['b', 'a imports b']])],
      ['b', new Map([['a', 'b imports a']])],
    ]);
    expect(loops(loop)).toEqual([['a', 'b']]);
    expect(depths.length).toBeGreaterThanOrEqual(4);
  });
});
