import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 17, item 6: services/cli imported indexer/ while indexer/generator imported
// services/cli/manifest.ts, a loop between folders; and the generator, data tooling, lived in
// the worker's folder. These read every relative import of the source tree and hold the rooms
// to one direction each, so a new module that climbs back fails here rather than in review.

const root = fileURLToPath(new URL('../../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A module's room: a folder under services/ or scripts/ (a top-level file is a room of its own), or indexer. */
function roomOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'indexer') return 'indexer';
  if (parts[0] === 'scripts') return parts.length > 2 ? `scripts/${parts[1]}` : 'scripts';
  return `${parts[0]}/${(parts[1] ?? '').replace(/\.ts$/, '')}`;
}

const IMPORT = /from '(\.{1,2}\/[^']+)'/g;

/** room -> room -> the first import that makes the edge, for the failure message. */
function roomEdges(): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const file of ['services', 'indexer', 'scripts'].flatMap(sources)) {
    for (const [, spec] of readFileSync(join(root, file), 'utf8').matchAll(IMPORT)) {
      const target = relative(root, normalize(join(root, dirname(file), spec!)));
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from === to) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${file} imports ${target}`);
      edges.set(from, out);
    }
  }
  return edges;
}

/** Every cycle's rooms, found by depth-first search; empty when the rooms form a directed acyclic graph. */
function cycles(edges: Map<string, Map<string, string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const walk = (room: string, path: string[]) => {
    state.set(room, 'open');
    for (const next of edges.get(room)?.keys() ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), room, next]);
      else if (!state.has(next)) walk(next, [...path, room]);
    }
    state.set(room, 'done');
  };
  for (const room of edges.keys()) if (!state.has(room)) walk(room, []);
  return found;
}

describe('rooms', () => {
  const edges = roomEdges();

  it('import one another in one direction only: no loop between folders', () => {
    const loops = cycles(edges).map((c) => `${c.join(' -> ')} (${edges.get(c.at(-2)!)?.get(c.at(-1)!)})`);
    expect(loops).toEqual([]);
  });

  it('the worker (indexer/) imports neither the tooling under scripts/ nor the CLI or the API', () => {
    const outward = [...(edges.get('indexer') ?? new Map<string, string>())]
      .filter(([to]) => to.startsWith('scripts') || to === 'services/cli' || to === 'services/api')
      .map(([, why]) => why);
    expect(outward).toEqual([]);
  });

  it('the domain imports no other room but config', () => {
    const outward = [...(edges.get('services/domain') ?? new Map<string, string>())].filter(([to]) => to !== 'services/config').map(([, why]) => why);
    expect(outward).toEqual([]);
  });

  // Issue 21: the account page (services/web) is served by the API process but sits on top of
  // it: it reuses the API's read functions and access layer, and the control plane's modules.
  // Neither of those may reach back into the pages, and the pages never touch the worker.
  it('the account page sits on the API and the control plane: neither imports it, and it imports no indexer code', () => {
    const intoWeb = ['services/api', 'services/control', 'services/engine', 'indexer']
      .flatMap((room) => [...(edges.get(room) ?? new Map<string, string>())].filter(([to]) => to === 'services/web').map(([, why]) => why));
    expect(intoWeb).toEqual([]);
    const outward = [...(edges.get('services/web') ?? new Map<string, string>())]
      .filter(([to]) => to === 'indexer' || to.startsWith('scripts') || to === 'services/cli')
      .map(([, why]) => why);
    expect(outward).toEqual([]);
    expect(edges.get('services/web')?.has('services/api')).toBe(true);
  });

  it('sees the imports it checks (a reader that found none would pass every rule)', () => {
    expect(edges.get('services/cli')?.has('indexer')).toBe(true);
    expect(edges.get('services/generator')?.has('services/formats')).toBe(true);
  });
});
