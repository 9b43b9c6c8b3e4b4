import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stackVariables, usesLocalStack } from '../../../../services/cli/local-stack.ts';
import { readRecord, recordStack } from '../../../../services/process/stack-record.ts';
import { loadConfig } from '../../../../services/config.ts';

// The record npm start leaves so the commands of another terminal find its stack without
// environment variables.

const dir = mkdtempSync(join(tmpdir(), 'taxcert-local-stack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'data', 'stack.json');

describe('the stack record', () => {
  it('holds where the stack is, whether its key secret came from the environment, and no secret', () => {
    const fromFile = loadConfig({ NODE_ENV: 'development', DATABASE_PATH: join(dir, 'data', 'one.db'), INDEX_PREFIX: 'one' });
    recordStack(fromFile, file);
    expect(readRecord(file)).toMatchObject({
      pid: process.pid,
      env: {
        DATABASE_PATH: join(dir, 'data', 'one.db'),
        INDEX_PREFIX: 'one',
        OPENSEARCH_URL: 'http://127.0.0.1:9200',
        KEY_PREFIX: 'txc',
        NODE_ENV: 'development',
      },
      keyHashSecretGiven: false,
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const given = loadConfig({ NODE_ENV: 'development', DATABASE_PATH: join(dir, 'data', 'one.db'), KEY_HASH_SECRET: 's'.repeat(40) });
    recordStack(given, file).remove();
    expect(existsSync(file)).toBe(false);
    recordStack(given, file);
    expect(readRecord(file)?.keyHashSecretGiven).toBe(true);
    expect(readFileSync(file, 'utf8')).not.toContain('s'.repeat(40));

    // The same for the key that seals webhook secrets.
    recordStack(fromFile, file);
    expect(readRecord(file)?.webhookSecretKeyGiven).toBe(false);
    recordStack(
      loadConfig({ NODE_ENV: 'development', DATABASE_PATH: join(dir, 'data', 'one.db'), WEBHOOK_SECRET_KEY: 'w'.repeat(40) }),
      file,
    );
    expect(readRecord(file)?.webhookSecretKeyGiven).toBe(true);
    expect(readFileSync(file, 'utf8')).not.toContain('w'.repeat(40));
  });

  it('is removed only by the start that wrote it', () => {
    const config = loadConfig({ NODE_ENV: 'development', DATABASE_PATH: join(dir, 'data', 'one.db') });
    const mine = recordStack(config, file);
    // A second npm start of the checkout took the record over.
    const other = { ...readRecord(file), pid: 1 };
    writeFileSync(file, JSON.stringify(other));
    mine.remove();
    expect(readRecord(file)?.pid).toBe(1);
  });

  it('is not consulted when the environment says where the stack is', async () => {
    expect(await stackVariables({ OPENSEARCH_URL: 'http://x:9200' }, join(dir, 'none.json'))).toEqual({});
    expect(await stackVariables({ DATABASE_PATH: '/x.db' }, join(dir, 'none.json'))).toEqual({});
    await expect(stackVariables({}, join(dir, 'none.json'))).rejects.toMatchObject({ code: 'no_stack' });
  });

  it('a half-written or foreign file is no record', () => {
    writeFileSync(file, '{"pid": 12');
    expect(readRecord(file)).toBeNull();
    writeFileSync(file, '{"pid": 12, "env": {}}');
    expect(readRecord(file)).toBeNull();
  });

  it('is looked up by the operator commands, not by start, serve, worker or fixtures', () => {
    for (const c of ['status', 'clients', 'keys', 'usage', 'quarantine', 'ingest', 'jobs', 'migrate'])
      expect(usesLocalStack(c), c).toBe(true);
    for (const c of ['start', 'serve', 'worker', 'fixtures']) expect(usesLocalStack(c), c).toBe(false);
  });
});
