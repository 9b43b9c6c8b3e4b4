import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { fileDigest } from './digest.ts';
import { BULK_DATASETS, BULK_FORMATS, BULK_KINDS, manifestName, MANIFEST_SUFFIX } from './names.ts';
import type { BulkStorage } from './storage.ts';

/**
 * One bulk file's manifest entry: what GET /bulk/files lists and list_bulk_files returns. The
 * builder writes it beside the file (a sidecar) after the file itself is in place, so an entry
 * never names a file that is not there; the file's sha256 is its ETag.
 */
export const BulkFile = z.object({
  name: z.string().describe('The file name: GET /api/v1/bulk/files/{name} downloads it.'),
  dataset: z.enum(BULK_DATASETS).describe('The dataset whose rows the file holds.'),
  kind: z
    .enum(BULK_KINDS)
    .describe('snapshot: every row of the county and tax year (or of the dataset); delta: the changes of one Florida day.'),
  county: z.string().nullable().describe('County slug of a per-county snapshot; null otherwise.'),
  tax_year: z.number().int().nullable().describe('Tax year of a per-county snapshot; null otherwise.'),
  day: z.iso.date().nullable().describe('Florida calendar day of a delta (YYYY-MM-DD); null for a snapshot.'),
  format: z.enum(BULK_FORMATS).describe('parquet (zstd), ndjson (gzipped, one row a line) or csv (gzipped, the API columns).'),
  rows: z.number().int().describe('Rows in the file (CSV: not counting the header line).'),
  bytes: z.number().int().describe('Size of the file as downloaded.'),
  sha256: z.string().describe('Hex sha256 of the file as downloaded; also its ETag.'),
  generated_at: z.iso.datetime().describe('When the file was written (UTC).'),
  through_event: z
    .string()
    .nullable()
    .describe(
      'The newest change-feed event (evt_<id>) the file is consistent with: replay the deltas and events after it. null before the first event.',
    ),
});
export type BulkFile = z.infer<typeof BulkFile>;

export async function writeEntry(storage: BulkStorage, entry: BulkFile, localFile: string): Promise<void> {
  await writeFile(localFile, `${JSON.stringify(entry)}\n`);
  await storage.put(manifestName(entry.name), localFile, await fileDigest(localFile));
}

/** Every entry whose file is stored, by name. */
export async function readEntries(storage: BulkStorage): Promise<BulkFile[]> {
  const names = new Set(await storage.list());
  const entries: BulkFile[] = [];
  for (const name of names) {
    if (!name.endsWith(MANIFEST_SUFFIX)) continue;
    const file = name.slice(0, -MANIFEST_SUFFIX.length);
    if (!names.has(file)) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of storage.read(name)) chunks.push(chunk as Buffer);
    const parsed = BulkFile.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    if (parsed.success) entries.push(parsed.data);
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The entry of one stored file, or null when the file or its entry is not there. */
export async function readEntry(storage: BulkStorage, name: string): Promise<BulkFile | null> {
  if ((await storage.stat(manifestName(name))) === null || (await storage.stat(name)) === null) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of storage.read(manifestName(name))) chunks.push(chunk as Buffer);
  const parsed = BulkFile.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
  return parsed.success ? parsed.data : null;
}
