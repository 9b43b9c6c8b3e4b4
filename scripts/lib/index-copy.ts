import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import type { Client } from '@opensearch-project/opensearch';
import { createBulkWriter } from '../../indexer/load/bulk.ts';

/**
 * The raw side of the ingest benchmark: the documents an index holds, written out as
 * `id<TAB>source` lines, then sent back with plain _bulk into another index. Read from the
 * pipeline's own index, they are exactly the documents the pipeline wrote, not a second
 * rendering of the generator's records.
 */

const PAGE = 5000;

/** Every document of `index` into `file`; returns how many. Not timed: a scroll in _doc order. */
export async function exportDocuments(client: Client, index: string, file: string): Promise<number> {
  const out = createWriteStream(file);
  let count = 0;
  let res = await client.search({ index, scroll: '2m', size: PAGE, body: { sort: ['_doc'] } as never });
  let scrollId = res.body._scroll_id;
  try {
    for (;;) {
      const hits = res.body.hits.hits as unknown as { _id: string; _source: unknown }[];
      if (hits.length === 0) break;
      let text = '';
      for (const h of hits) text += `${h._id}\t${JSON.stringify(h._source)}\n`;
      count += hits.length;
      if (!out.write(text)) await once(out, 'drain');
      res = await client.scroll({ scroll_id: scrollId!, scroll: '2m' } as never);
      scrollId = res.body._scroll_id;
    }
  } finally {
    if (scrollId) await client.clearScroll({ scroll_id: scrollId } as never).catch(() => undefined);
    out.end();
    await finished(out);
  }
  return count;
}

/** The exported documents into `index` with _bulk (the writer's default batches and concurrency). */
export async function bulkFromFile(client: Client, index: string, file: string) {
  const writer = createBulkWriter(client, { index });
  for await (const line of createInterface({ input: createReadStream(file, { highWaterMark: 1 << 20 }), crlfDelay: Infinity })) {
    const tab = line.indexOf('\t');
    await writer.add(line.slice(0, tab), line.slice(tab + 1));
  }
  return writer.flush();
}
