import type { Node } from './compile.ts';

/**
 * A key for every node of a compiled search, equal for nodes that give the same verdict on any
 * batch: a leaf's own key, and for bool nodes their parts' keys in a fixed order (a conjunction
 * or disjunction does not depend on its parts' order). A batch computes each key once, so
 * thousands of searches sharing a county, a status and a face floor combine them once.
 *
 * An `and` is evaluated part by part in that order, each prefix under its own key: two searches
 * that share their first parts share that work too and differ only in the rest. Parts the worker
 * cannot judge (a text clause) go last, so a search's decided filters form one shared prefix.
 */

export interface AndPlan {
  parts: Node[];
  /** prefixes[i]: the key of the conjunction of parts[0..i]; the last is the node's own key. */
  prefixes: string[];
}

const keys = new WeakMap<Node, string>();
const plans = new WeakMap<Node, AndPlan>();

export function nodeKey(node: Node): string {
  switch (node.k) {
    case 'all':
      return 'T';
    case 'none':
      return 'F';
    case 'unknown':
      return '?';
    case 'leaf':
      return node.key;
  }
  let key = keys.get(node);
  if (key === undefined) {
    if (node.k === 'not') key = `!(${nodeKey(node.of)})`;
    else if (node.k === 'and') key = andPlan(node).prefixes.at(-1) ?? 'T';
    else key = `|(${node.of.map(nodeKey).sort().join(',')})`;
    keys.set(node, key);
  }
  return key;
}

function undecidable(node: Node): boolean {
  if (node.k === 'unknown') return true;
  if (node.k === 'and' || node.k === 'or') return node.of.some(undecidable);
  return node.k === 'not' && undecidable(node.of);
}

export function andPlan(node: Extract<Node, { k: 'and' }>): AndPlan {
  let plan = plans.get(node);
  if (!plan) {
    const parts = [...node.of]
      .map((part) => ({ part, key: nodeKey(part), last: undecidable(part) }))
      .sort((a, b) => Number(a.last) - Number(b.last) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const prefixes: string[] = [];
    let prefix = '';
    for (const p of parts) {
      prefix = prefix === '' ? `&(${p.key}` : `${prefix},${p.key}`;
      prefixes.push(`${prefix})`);
    }
    plan = { parts: parts.map((p) => p.part), prefixes };
    plans.set(node, plan);
  }
  return plan;
}

const sources = new WeakMap<Node, readonly string[]>();

/** The document fields a node reads. */
export function sourcesOf(node: Node): readonly string[] {
  if (node.k === 'leaf') return [node.leaf.field.source];
  if (node.k !== 'and' && node.k !== 'or' && node.k !== 'not') return [];
  let out = sources.get(node);
  if (!out) {
    const parts = node.k === 'not' ? [node.of] : node.of;
    out = [...new Set(parts.flatMap(sourcesOf))];
    sources.set(node, out);
  }
  return out;
}
