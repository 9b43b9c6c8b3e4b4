import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// A fresh `npm install` on Node 20 once warned EBADENGINE (content-disposition@3 and cookie@2
// declare Node >= 22) and rewrote the lock (an entry out of npm's order). The lock must install on
// the lowest Node our `engines` admits, and be in the order npm itself writes.

type Lock = { packages: Record<string, { version?: string; engines?: { node?: string } }> };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as Lock;
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };

type Version = [number, number, number];

function parts(text: string): { v: Version; given: number } {
  const nums = text.replace(/^v/, '').split('.');
  const given = nums.filter((n) => n !== '' && n !== 'x' && n !== '*').length;
  const v = [0, 1, 2].map((i) => {
    const n = Number(nums[i]);
    return Number.isFinite(n) ? n : 0;
  }) as Version;
  return { v, given };
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The subset of node-semver ranges that package `engines` fields use (no prereleases). */
function satisfies(version: string, range: string): boolean {
  const have = parts(version).v;
  return range.split('||').some((set) => {
    const comparators = set
      .trim()
      .replace(/([<>=^~]+)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    return comparators.every((comparator) => {
      const m = /^(\^|~|>=|<=|>|<|=)?(.*)$/.exec(comparator);
      if (!m) return false;
      const op = m[1] ?? '';
      if (m[2] === '*' || m[2] === 'x') return true;
      const { v, given } = parts(m[2] ?? '');
      const cmp = compare(have, v);
      switch (op) {
        case '>=':
          return cmp >= 0;
        case '>':
          return cmp > 0;
        case '<=':
          return cmp <= 0;
        case '<':
          return cmp < 0;
        case '^':
          return cmp >= 0 && (v[0] > 0 ? have[0] === v[0] : have[0] === 0 && have[1] === v[1]);
        case '~':
          return cmp >= 0 && have[0] === v[0] && (given < 2 || have[1] === v[1]);
        default:
          // A bare or x-range version matches every release of the parts it names.
          return v.slice(0, given).every((n, i) => have[i] === n);
      }
    });
  });
}

describe('range matcher', () => {
  it('reads the forms found in our lock', () => {
    expect(satisfies('20.19.0', '>=22')).toBe(false);
    expect(satisfies('20.19.0', '>= 6')).toBe(true);
    expect(satisfies('20.19.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('20.18.0', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies('20.19.0', '20.x || 22.x')).toBe(true);
    expect(satisfies('21.0.0', '18 || 20 || >=22')).toBe(false);
    expect(satisfies('20.19.0', '>=16 || 14 >=14.17')).toBe(true);
    expect(satisfies('14.16.0', '>=16 || 14 >=14.17')).toBe(false);
    expect(satisfies('20.19.0', '*')).toBe(true);
  });
});

describe('package-lock.json', () => {
  const lowest = /^>=\s*(\d+\.\d+(?:\.\d+)?)$/.exec(manifest.engines.node)?.[1];

  it('every locked package supports the lowest Node our engines admit, and the one running', () => {
    expect(lowest).toBeDefined();
    const refused = Object.entries(lock.packages)
      .filter(([, p]) => p.engines?.node !== undefined)
      .filter(([, p]) => !satisfies(lowest ?? '', p.engines?.node ?? '*') || !satisfies(process.version, p.engines?.node ?? '*'))
      .map(([path, p]) => `${path}@${p.version} wants node ${p.engines?.node}`);
    expect(refused).toEqual([]);
  });

  it('lists packages in the order npm writes them, so an install leaves it unchanged', () => {
    const paths = Object.keys(lock.packages);
    expect(paths).toEqual([...paths].sort((a, b) => a.localeCompare(b, 'en')));
  });
});
