// @module-tag postgres
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openControlPlane } from '../../../../../services/control/control-plane.ts';
import { testTarget } from '../../../../helpers/control.ts';
import { StackMismatchError, stackOf } from '../../../../../services/control/db/stack.ts';
import { loadRegistry } from '../../../../../services/domain/registry.ts';
import { runCli } from '../../../../helpers/cli.ts';

// Stacks must not share a database: a second stack (INDEX_PREFIX=other) loading the demo once wrote
// the first stack's database, whose counties then reported the other stack's 1,500 certificates.

const registry = loadRegistry();
const dir = mkdtempSync(join(tmpdir(), 'taxcert-stack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a database belongs to one stack', () => {
  it('is claimed by the first prefix that opens it and refuses another', async () => {
    const { target, where, drop } = testTarget(join(dir, 'claimed.db'), 'claimed');
    try {
      const first = await openControlPlane(target, { registry, indexPrefix: 'taxcert' });
      expect(await stackOf(first)).toBe('taxcert');
      await first.close();
      await (await openControlPlane(target, { registry, indexPrefix: 'taxcert' })).close(); // its own stack opens it again
      await expect(openControlPlane(target, { registry, indexPrefix: 'other' })).rejects.toThrow(StackMismatchError);
      await expect(openControlPlane(target, { registry, indexPrefix: 'other' })).rejects.toThrow(
        `database ${where} belongs to the stack with INDEX_PREFIX=taxcert, not other: give this stack its own DATABASE_PATH (by default data/<INDEX_PREFIX>.db) or DATABASE_URL`,
      );
    } finally {
      drop();
    }
  });

  it('the CLI refuses another stack in one line', async () => {
    const path = join(dir, 'cli.db');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', DATABASE_PATH: path, LOG_LEVEL: 'warn' };
    expect((await runCli(['counties'], { ...env, INDEX_PREFIX: 'first' })).code).toBe(0);
    const r = await runCli(['counties'], { ...env, INDEX_PREFIX: 'second' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `taxcert: database ${path} belongs to the stack with INDEX_PREFIX=first, not second: give this stack its own DATABASE_PATH (by default data/<INDEX_PREFIX>.db) or DATABASE_URL`,
    );
  });
});
