import { type Client, errors } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkRequestError } from '../../../../indexer/errors.ts';
import { createBulkWriter } from '../../../../indexer/load/bulk.ts';
import { dropIndices } from '../../../../indexer/indices/describe.ts';
import { ensureIndices } from '../../../../indexer/indices/ensure.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { createOpenSearch } from '../../../../services/engine/client.ts';
import { testContext } from '../../../helpers/context.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

const ctx = testContext(import.meta.url);
const prefix = ctx.config.INDEX_PREFIX;
const index = aliasName(prefix, 'certificates');
let client: Client;

const docs = Array.from({ length: 5000 }, (_, n) => sampleCertificate({}, n));

async function count(): Promise<number> {
  return (await client.count({ index })).body.count;
}

beforeAll(async () => {
  client = createOpenSearch(ctx.config);
  await ensureIndices(client, prefix, 0);
});

afterAll(async () => {
  await dropIndices(client, prefix);
  await client.close();
  ctx.cleanupFiles();
});

describe('bulk writer', () => {
  it('indexes 5,000 documents in batches', async () => {
    const writer = createBulkWriter(client, { index, batchDocs: 700, concurrency: 2, refresh: true });
    for (const doc of docs) await writer.add(doc.id, doc);
    const totals = await writer.flush();
    expect(totals).toEqual({ created: 5000, updated: 0, failed: 0, failures: [] });
    expect(await count()).toBe(5000);
  });

  it('re-adding the same ids (pre-serialized) updates in place, never duplicates', async () => {
    const writer = createBulkWriter(client, { index, batchBytes: 256 * 1024, refresh: true });
    for (const doc of docs) await writer.add(doc.id, JSON.stringify(doc));
    const totals = await writer.flush();
    expect(totals).toEqual({ created: 0, updated: 5000, failed: 0, failures: [] });
    expect(await count()).toBe(5000);
  });

  it('accepts a pretty-printed string by re-serializing it to one line', async () => {
    const doc = docs[0]!;
    const writer = createBulkWriter(client, { index });
    await writer.add(doc.id, JSON.stringify(doc, null, 2));
    expect(await writer.flush()).toMatchObject({ updated: 1, failed: 0 });
  });
});

/** A client whose bulk() answers from a script, to drive the retry paths without a sick node. */
function scriptedClient(answers: Array<() => unknown>) {
  const calls: string[] = [];
  const fake = {
    bulk: async (params: { body: string }) => {
      calls.push(params.body);
      const next = answers.shift();
      if (!next) throw new Error('no more scripted answers');
      return next();
    },
  };
  return { client: fake as unknown as Client, calls };
}

const responseError = (statusCode: number) =>
  new errors.ResponseError({ body: { error: { type: 'busy' } }, statusCode, headers: {}, warnings: null, meta: {} } as never);

describe('bulk writer retries', () => {
  it('retries a whole batch on 429 and then on a lost connection, with backoff', async () => {
    const { client: fake, calls } = scriptedClient([
      () => {
        throw responseError(429);
      },
      () => {
        throw new errors.ConnectionError('socket hang up', {} as never);
      },
      () => ({ body: { errors: false, items: [{ index: { _id: 'a', status: 201, result: 'created' } }] } }),
    ]);
    const writer = createBulkWriter(fake, { index: 'x', retryBaseMs: 1 });
    await writer.add('a', { n: 1 });
    expect(await writer.flush()).toEqual({ created: 1, updated: 0, failed: 0, failures: [] });
    expect(calls).toHaveLength(3);
  });

  it('retries only the items refused with 429, and reports mapping errors without retrying', async () => {
    const { client: fake, calls } = scriptedClient([
      () => ({
        body: {
          errors: true,
          items: [
            { index: { _id: 'a', status: 201, result: 'created' } },
            { index: { _id: 'b', status: 429, error: { type: 'es_rejected_execution_exception', reason: 'busy' } } },
            { index: { _id: 'c', status: 400, error: { type: 'mapper_parsing_exception', reason: 'bad date' } } },
          ],
        },
      }),
      () => ({ body: { errors: false, items: [{ index: { _id: 'b', status: 201, result: 'created' } }] } }),
    ]);
    const writer = createBulkWriter(fake, { index: 'x', retryBaseMs: 1 });
    for (const id of ['a', 'b', 'c']) await writer.add(id, { id });
    expect(await writer.flush()).toEqual({
      created: 2,
      updated: 0,
      failed: 1,
      failures: [{ id: 'c', status: 400, type: 'mapper_parsing_exception', reason: 'bad date' }],
    });
    expect(calls[1]).toBe('{"index":{"_id":"b"}}\n{"id":"b"}\n');
  });

  it('gives up after its attempts and fails the flush with a typed error', async () => {
    const busy = () => {
      throw responseError(503);
    };
    const { client: fake, calls } = scriptedClient([busy, busy, busy]);
    const writer = createBulkWriter(fake, { index: 'x', retryBaseMs: 1, maxAttempts: 3 });
    await writer.add('a', {});
    await expect(writer.flush()).rejects.toMatchObject({ name: 'BulkRequestError', code: 'unavailable' });
    expect(calls).toHaveLength(3);
  });

  it('does not retry a request the engine refuses outright', async () => {
    const { client: fake, calls } = scriptedClient([
      () => {
        throw responseError(400);
      },
    ]);
    const writer = createBulkWriter(fake, { index: 'x', retryBaseMs: 1 });
    await writer.add('a', {});
    const err = await writer.flush().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BulkRequestError);
    expect((err as BulkRequestError).code).toBe('rejected');
    expect(calls).toHaveLength(1);
  });
});
