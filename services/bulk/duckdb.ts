/**
 * DuckDB writes the Parquet files (a well-kept writer: typed columns, zstd pages) from the
 * gzipped NDJSON the builder has just written, so the two formats hold the same rows by
 * construction. One in-memory instance per build, closed after; its memory is capped so a
 * large county spills to disk instead of growing the process. Loaded on first use: the CLI and
 * the API import this module's callers without ever writing a Parquet file.
 */
export async function withDuckDb<T>(run: (exec: (sql: string) => Promise<unknown[][]>) => Promise<T>): Promise<T> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: '256MB', threads: '1' });
  const connection = await instance.connect();
  try {
    return await run(async (sql) => (await connection.runAndReadAll(sql)).getRows() as unknown[][]);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A string as a SQL literal. */
export function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
