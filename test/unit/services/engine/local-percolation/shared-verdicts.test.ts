import { describe, expect, it } from 'vitest';
import { positions } from '../../../../../services/engine/local-percolation/bits.ts';
import { compileQuery, type Node } from '../../../../../services/engine/local-percolation/compile.ts';
import { DocBatch } from '../../../../../services/engine/local-percolation/evaluate.ts';
import { fieldKinds } from '../../../../../services/engine/local-percolation/field-kinds.ts';
import { nodeKey } from '../../../../../services/engine/local-percolation/node-keys.ts';
import { loadMapping } from '../../../../../services/engine/mapping-file.ts';
import { Prng } from '../../../../../services/generator/prng.ts';

/**
 * A batch shares every verdict it computed among the searches it judges (by node key, conjunctions
 * by their prefixes). Whatever order searches come in and whatever they share, each search's
 * verdict is the one three-valued logic gives document by document from its leaves alone.
 */

const fields = fieldKinds(loadMapping('certificates'));

const LEAVES = [
  { term: { county_slug: 'lee' } },
  { terms: { county_slug: ['lee', 'duval'] } },
  { term: { status: 'sold' } },
  { range: { face_amount: { gte: 1000 } } },
  { range: { face_amount: { gte: 500, lte: 2000 } } },
  { term: { tax_year: 2024 } },
  { wildcard: { 'holder_name.contains': { value: '*acme*' } } },
  // Only the engine can judge these: unknown for every document.
  { match: { owner_name: 'smith' } },
  { multi_match: { query: 'oak', fields: ['owner_name'] } },
];

const statuses = ['sold', 'redeemed', 'advertised'];
const random = new Prng(7);
const docs = Array.from({ length: 200 }, (_, i) => ({
  county_slug: random.pick(['lee', 'duval', 'broward']),
  status: random.pick(statuses),
  face_amount: random.chance(0.1) ? null : Math.round(random.next() * 300000) / 100,
  tax_year: random.pick([2023, 2024]),
  holder_name: random.pick(['ACME TAX FUND LLC', 'Acmé Tax', 'BRIGHT LIENS', null]),
  id: `cert_${i}`,
}));

type Three = 'true' | 'false' | 'unknown';

/** Each leaf's verdict per document, from a batch of that document alone. */
function leafVerdict(clause: Record<string, unknown>, doc: Record<string, unknown>): Three {
  const v = new DocBatch([doc]).evaluate(compileQuery(fields, clause));
  return positions(v.t).length > 0 ? 'true' : positions(v.u).length > 0 ? 'unknown' : 'false';
}

type Tree = { leaf: number } | { and: Tree[] } | { or: Tree[] } | { not: Tree };

function randomTree(depth: number): Tree {
  const x = random.next();
  if (depth === 0 || x < 0.4) return { leaf: random.int(LEAVES.length) };
  const parts = Array.from({ length: random.between(1, 4) }, () => randomTree(depth - 1));
  return x < 0.75 ? { and: parts } : x < 0.9 ? { or: parts } : { not: parts[0]! };
}

function dsl(tree: Tree): Record<string, unknown> {
  if ('leaf' in tree) return LEAVES[tree.leaf]!;
  if ('and' in tree) return { bool: { filter: tree.and.map(dsl) } };
  if ('or' in tree) return { bool: { should: tree.or.map(dsl), minimum_should_match: 1 } };
  return { bool: { must_not: [dsl(tree.not)] } };
}

function expected(tree: Tree, doc: Record<string, unknown>): Three {
  if ('leaf' in tree) return leafVerdict(LEAVES[tree.leaf]!, doc);
  if ('not' in tree) {
    const v = expected(tree.not, doc);
    return v === 'unknown' ? 'unknown' : v === 'true' ? 'false' : 'true';
  }
  const vs = ('and' in tree ? tree.and : tree.or).map((t) => expected(t, doc));
  if ('and' in tree) return vs.includes('false') ? 'false' : vs.includes('unknown') ? 'unknown' : 'true';
  return vs.includes('true') ? 'true' : vs.includes('unknown') ? 'unknown' : 'false';
}

function verdicts(batch: DocBatch, node: Node): Three[] {
  const v = batch.evaluate(node);
  const t = new Set(positions(v.t));
  const u = new Set(positions(v.u));
  return docs.map((_, i) => (t.has(i) ? 'true' : u.has(i) ? 'unknown' : 'false'));
}

describe('verdicts shared within a batch', () => {
  it('give each search what three-valued logic gives it document by document, in any order, and count it so', () => {
    const trees = Array.from({ length: 300 }, () => randomTree(3));
    const nodes = trees.map((t) => compileQuery(fields, dsl(t)));
    const want = trees.map((t) => docs.map((d) => expected(t, d)));
    const shared = new DocBatch(docs);
    for (const [i, node] of nodes.entries()) expect(verdicts(shared, node), JSON.stringify(dsl(trees[i]!))).toEqual(want[i]);
    const reversed = new DocBatch(docs);
    for (let i = nodes.length - 1; i >= 0; i--) expect(verdicts(reversed, nodes[i]!)).toEqual(want[i]);
    // A tally (the count a first load needs) is the same verdict counted, whatever the batch computed before.
    const tallied = new DocBatch(docs);
    for (const [i, node] of nodes.entries()) {
      if (i % 3 === 0) tallied.evaluate(nodes[(i * 7) % nodes.length]!);
      expect(tallied.tally(node)).toEqual({
        count: want[i]!.filter((v) => v === 'true').length,
        undecided: want[i]!.includes('unknown'),
      });
    }
  });

  it('give the same key to conjunctions and disjunctions of the same parts in any order', () => {
    const [a, b, c] = [LEAVES[0]!, LEAVES[2]!, LEAVES[3]!];
    const key = (q: Record<string, unknown>) => nodeKey(compileQuery(fields, q));
    expect(key({ bool: { filter: [a, b, c] } })).toBe(key({ bool: { filter: [c, a, b] } }));
    expect(key({ bool: { should: [a, b], minimum_should_match: 1 } })).toBe(key({ bool: { should: [b, a], minimum_should_match: 1 } }));
    expect(key({ bool: { filter: [a, b] } })).not.toBe(key({ bool: { filter: [a, c] } }));
    expect(key({ bool: { filter: [a, b] } })).not.toBe(key({ bool: { should: [a, b], minimum_should_match: 1 } }));
  });
});
