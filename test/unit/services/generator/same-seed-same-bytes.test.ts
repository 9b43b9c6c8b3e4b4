import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../../../services/generator/generate-fixtures.ts';

function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return out;
}

describe('generateFixtures with the real writers', () => {
  const root = mkdtempSync(join(tmpdir(), 'taxcert-seed-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes the same bytes for the same seed, and other certificate numbers for another seed', async () => {
    const options = { certificates: 600, today: '2026-11-22' };
    await generateFixtures({ ...options, seed: 11, out: join(root, 'a') });
    await generateFixtures({ ...options, seed: 11, out: join(root, 'b') });
    await generateFixtures({ ...options, seed: 12, out: join(root, 'c') });
    const a = files(join(root, 'a'));
    const b = files(join(root, 'b'));
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    expect(a.size).toBeGreaterThan(60);
    for (const [path, bytes] of a) expect(bytes.equals(b.get(path)!), path).toBe(true);
    const c = files(join(root, 'c'));
    const miamiA = a.get('miami-dade/2020.jsonl')!.toString();
    const miamiC = c.get('miami-dade/2020.jsonl')!.toString();
    const numbers = (text: string) => [...text.matchAll(/"certificateNumber":"([^"]+)"/g)].map((m) => m[1]);
    expect(numbers(miamiA).length).toBeGreaterThan(0);
    expect(numbers(miamiA)).not.toEqual(numbers(miamiC));
  });
});
