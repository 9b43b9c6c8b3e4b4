import { rm } from 'node:fs/promises';
import { toCsv } from '../formats/api-csv.ts';
import { fileDigest } from './digest.ts';
import { type DuckDb, openDuckDb, sqlText } from './duckdb.ts';
import { type BulkFile, writeEntry } from './entry.ts';
import { GzipSink } from './gzip-sink.ts';
import { type BulkFileKey, type BulkFormat, bulkFileName } from './names.ts';
import { type BulkStorage, BulkVerifyError } from './storage.ts';

/**
 * One Parquet column: its name in the rows and its DuckDB type (DATE, DECIMAL(12,2), BOOLEAN, VARCHAR, ...).
 * 'infer': DuckDB takes the types from the NDJSON itself (the small directory datasets, whose rows
 * carry nested lists and objects).
 */
export type TypedColumns = readonly (readonly [string, string])[];
export type ParquetColumns = TypedColumns | 'infer';

export interface FileSet {
  /** The file's identity except its format. */
  key: Omit<BulkFileKey, 'format'>;
  /** The CSV header, in the API's order. */
  columns: readonly string[];
  parquet: ParquetColumns;
  /** Which formats to write (snapshots: all three; deltas: parquet and ndjson). */
  formats: readonly BulkFormat[];
  throughEvent: string | null;
  now: Date;
  /** Told how long the gzipped text files (one pass) and the Parquet took: the benchmark's figures. */
  onTimings?: (t: { textMs: number; parquetMs: number }) => void;
  /** The build's DuckDB, shared by its file sets; a set given none opens and closes one of its own. */
  duckdb?: DuckDb;
}

/**
 * Writes one set of files from pages of rows: gzipped NDJSON and CSV in one pass over the
 * pages (memory: one page), then Parquet by DuckDB from the NDJSON. Each file is built under a
 * temp name, checked (its sha256 and size as written; the Parquet's row count as DuckDB reads
 * it back), then moved into place, and its manifest entry written after it.
 */
export async function writeFileSet(
  storage: BulkStorage,
  set: FileSet,
  pages: AsyncIterable<Record<string, unknown>[]>,
): Promise<BulkFile[]> {
  const names = Object.fromEntries(
    (['ndjson', 'csv', 'parquet'] as const).map((format) => [format, bulkFileName({ ...set.key, format })]),
  ) as Record<BulkFormat, string>;
  const temps = Object.fromEntries(Object.entries(names).map(([f, n]) => [f, storage.tempPath(n)])) as Record<BulkFormat, string>;
  const ndjson = new GzipSink(temps.ndjson);
  const csv = set.formats.includes('csv') ? new GzipSink(temps.csv) : null;
  let rows = 0;
  const started = performance.now();
  try {
    await csv?.write(toCsv([...set.columns], [], { header: true }));
    for await (const page of pages) {
      if (page.length === 0) continue;
      rows += page.length;
      // Both texts are rendered before either is written, so the page's rows are garbage while the
      // gzip streams take their time, and young objects do not outlive a scavenge.
      const lines = `${page.map((r) => JSON.stringify(r)).join('\n')}\n`;
      const csvText = csv ? toCsv([...set.columns], page, { header: false }) : '';
      page.length = 0;
      await ndjson.write(lines);
      await csv?.write(csvText);
    }
    const written: Partial<Record<BulkFormat, { bytes: number; sha256: string }>> = { ndjson: await ndjson.close() };
    if (csv) written.csv = await csv.close();
    const textDone = performance.now();
    if (set.formats.includes('parquet')) {
      await writeParquet(set.duckdb, temps.ndjson, temps.parquet, set.parquet, rows);
      written.parquet = await fileDigest(temps.parquet);
    }
    set.onTimings?.({ textMs: textDone - started, parquetMs: performance.now() - textDone });
    const entries: BulkFile[] = [];
    // The NDJSON goes last: the Parquet was read from its temp file.
    for (const format of (['parquet', 'csv', 'ndjson'] as const).filter((f) => set.formats.includes(f))) {
      const digest = written[format]!;
      await storage.put(names[format], temps[format], digest);
      const entry: BulkFile = {
        name: names[format],
        dataset: set.key.dataset,
        kind: set.key.kind,
        county: set.key.county,
        tax_year: set.key.taxYear,
        day: set.key.day,
        format,
        rows,
        bytes: digest.bytes,
        sha256: digest.sha256,
        generated_at: set.now.toISOString(),
        through_event: set.throughEvent,
      };
      await writeEntry(storage, entry, storage.tempPath(`${names[format]}.manifest`));
      entries.push(entry);
    }
    return entries;
  } finally {
    await Promise.all(Object.values(temps).map((t) => rm(t, { force: true })));
  }
}

/**
 * Rows a Parquet row group holds. DuckDB holds a row group in memory until it is written, and its
 * default (122,880 rows) made memory grow with the county: converting 261,000 rows peaked 162 MB
 * over the process at the default and 112 MB at 30,000 (33,000 rows: 50 and 60 MB), for files
 * 1.3 % larger. 15,000 rows saved 30 MB more for 2.8 %.
 */
const PARQUET_ROW_GROUP = 30_000;

async function writeParquet(
  shared: DuckDb | undefined,
  ndjsonFile: string,
  parquetFile: string,
  columns: ParquetColumns,
  rows: number,
): Promise<void> {
  const source =
    columns === 'infer'
      ? `SELECT * FROM read_json(${sqlText(ndjsonFile)}, format = 'newline_delimited', compression = 'gzip')`
      : `SELECT ${columns.map(([name]) => `"${name}"`).join(', ')} FROM read_json(${sqlText(ndjsonFile)}, format = 'newline_delimited', compression = 'gzip', columns = {${columns.map(([name, type]) => `${sqlText(name)}: ${sqlText(type)}`).join(', ')}})`;
  const duckdb = shared ?? (await openDuckDb());
  try {
    await duckdb.exec(
      `COPY (${source}) TO ${sqlText(parquetFile)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${PARQUET_ROW_GROUP})`,
    );
    const [[count]] = (await duckdb.exec(`SELECT count(*) FROM read_parquet(${sqlText(parquetFile)})`)) as [[bigint]];
    if (Number(count) !== rows) throw new BulkVerifyError(`${parquetFile}: DuckDB reads ${count} rows back, ${rows} were written`);
  } finally {
    if (!shared) duckdb.close();
  }
}
