import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type BulkFile, readEntry } from '../../../bulk/entry.ts';
import type { BulkStorage } from '../../../bulk/storage.ts';
import { folderStorage } from '../../../bulk/folder-storage.ts';
import { parseBulkFileName } from '../../../bulk/names.ts';
import type { ApiDeps } from '../../deps.ts';
import { ErrorSchema, listEnvelope } from '../../envelope.ts';
import { NotFoundError, RangeNotSatisfiableError } from '../../errors.ts';
import { textAnswers, answers } from '../../openapi/responses.ts';
import { BULK_LIST_EXAMPLE } from './examples.ts';
import { BulkFilePath, BulkFilesParams, NoBulkQuery } from './params.ts';
import { matchesEtag, parseRange } from './range.ts';
import { readBulkFiles } from './read.ts';
import { BulkFileList } from './row.ts';

const CONTENT_TYPES = { parquet: 'application/vnd.apache.parquet', ndjson: 'application/gzip', csv: 'application/gzip' } as const;

const FileBytes = z.string().describe('The file as stored: Parquet, or gzip of NDJSON or CSV.');

const NOT_FOUND = 'no bulk file "certificates.leon.2019.snapshot.parquet"; GET /api/v1/bulk/files lists them';

/**
 * The bulk files: the manifest and the downloads. Both need the CSV plan feature (route config
 * csvFeature: the access hook refuses a plan without it exactly as it refuses format=csv), and
 * each request costs one credit like any other.
 */
export function bulkRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  const storage = folderStorage(deps.config.BULK_DIR);
  const readDeps = { bulk: storage, registry: deps.registry };
  return async (app) => {
    app.get(
      '/bulk/files',
      {
        config: { csvFeature: true },
        schema: {
          operationId: 'listBulkFiles',
          summary: 'The bulk files: snapshots and daily deltas',
          description:
            'Every bulk file with its rows, bytes, sha256, when it was written and the newest change-feed event it is consistent with: snapshots per county and tax year of certificates, certificate sales and lands available, one snapshot each of holders, counties and sources (Parquet, gzipped NDJSON, gzipped CSV), and a certificates and a certificate-sales delta per Florida day. Load a snapshot, then apply the deltas and events after its through_event. Plans with CSV only; 1 credit.',
          tags: ['bulk'],
          querystring: BulkFilesParams,
          response: answers({
            schema: BulkFileList,
            description: 'One page of bulk files, by name.',
            example: BULK_LIST_EXAMPLE,
          }),
        },
      },
      async (request, reply) => reply.send(listEnvelope(await readBulkFiles(readDeps, request.query), request.id)),
    );
    app.get(
      '/bulk/files/:name',
      {
        config: { csvFeature: true },
        schema: {
          operationId: 'downloadBulkFile',
          summary: 'Download one bulk file',
          description:
            'The file, with Content-Length and an ETag of its sha256. Range (one byte range) resumes an interrupted download with 206 Partial Content; a range starting past the end is a 416. If-None-Match with the ETag answers 304. A name the manifest does not list is a 404. Plans with CSV only; 1 credit.',
          tags: ['bulk'],
          params: BulkFilePath,
          querystring: NoBulkQuery,
          response: downloadAnswers(),
        },
      },
      async (request, reply) => {
        const { name } = request.params;
        // Checked against the names the service writes before the storage is asked: no `..`, no separator, encoded or not.
        const key = parseBulkFileName(name);
        const entry = key === null ? null : await currentEntry(storage, name);
        if (key === null || entry === null)
          throw new NotFoundError(`no bulk file ${JSON.stringify(name)}; GET /api/v1/bulk/files lists them`);
        const etag = `"${entry.sha256}"`;
        reply.header('etag', etag).header('accept-ranges', 'bytes').header('cache-control', 'private, no-cache');
        if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
        // If-Range with another tag: the file changed since the first part; send it whole.
        const ifRange = request.headers['if-range'];
        const range =
          ifRange !== undefined && ifRange !== etag ? { kind: 'whole' as const } : parseRange(request.headers.range, entry.bytes);
        if (range.kind === 'unsatisfiable') throw new RangeNotSatisfiableError(entry.bytes);
        reply.type(CONTENT_TYPES[key.format]).header('content-disposition', `attachment; filename="${name}"`);
        if (range.kind === 'part') {
          return reply
            .code(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${entry.bytes}`)
            .header('content-length', range.end - range.start + 1)
            .send(storage.read(name, range));
        }
        return reply.header('content-length', entry.bytes).send(storage.read(name));
      },
    );
  };
}

/**
 * The download's answers: the file (200) or a part of it (206), 304 for a current copy, 416 for a
 * range past the end, and the errors of any read; each carries the rate-limit headers.
 */
function downloadAnswers() {
  const base = textAnswers(
    { mediaType: 'application/octet-stream', schema: FileBytes, example: '', description: 'The whole file.' },
    { notFound: NOT_FOUND },
  );
  const headers = base[200].headers;
  return {
    ...base,
    206: {
      description: 'The bytes of the Range asked for, with Content-Range: resume an interrupted download.',
      headers,
      content: { 'application/octet-stream': { schema: FileBytes } },
    },
    304: {
      description: 'If-None-Match named the current ETag: the copy you have is current (no body).',
      headers,
      content: { 'application/octet-stream': { schema: z.string().max(0) } },
    },
    416: {
      description: 'The Range starts past the end of the file; Content-Range gives its size (bytes */<size>).',
      headers,
      content: { 'application/json': { schema: ErrorSchema } },
    },
  };
}

/**
 * The entry of the file as stored now. A rebuild renames the new file into place a moment before
 * its entry, so an entry whose size disagrees with the file is read again, briefly, rather than
 * sending the new bytes under the old length and ETag.
 */
async function currentEntry(storage: BulkStorage, name: string): Promise<BulkFile | null> {
  for (let attempt = 0; ; attempt++) {
    const [entry, stored] = await Promise.all([readEntry(storage, name), storage.stat(name)]);
    if (entry === null || stored === null) return null;
    if (stored.bytes === entry.bytes || attempt === 5) return entry;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
