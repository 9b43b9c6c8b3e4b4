/**
 * DuckDB writes the Parquet files (a well-kept writer: typed columns, zstd pages) from the
 * gzipped NDJSON the builder has just written, so the two formats hold the same rows by
 * construction. Its memory is capped so a large county spills to disk instead of growing the
 * process. Loaded on first use: the CLI and the API import this module's callers without ever
 * writing a Parquet file.
 */
// 128 MB: a 1M build converts as fast as with 256 MB and its process peaks about 13 MB lower; at
// 64 MB the largest county's conversion fails (DuckDB asks for 32 MB blocks).
async function createInstance() {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  return DuckDBInstance.create(':memory:', { memory_limit: '128MB', threads: '1' });
}

/** One in-memory instance and one connection, closed after: statements that share tables. */
export async function withDuckDb<T>(run: (exec: (sql: string) => Promise<unknown[][]>) => Promise<T>): Promise<T> {
  const instance = await createInstance();
  const connection = await instance.connect();
  try {
    return await run(async (sql) => (await connection.runAndReadAll(sql)).getRows() as unknown[][]);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** An instance a whole build shares; each statement runs on a connection of its own, so file sets built side by side do not wait for each other. */
export interface DuckDb {
  exec(sql: string): Promise<unknown[][]>;
  close(): void;
}

/**
 * Opens the build's instance. Starting an instance costs more than converting a small county
 * (the library's first load most of all), so a build of many file sets opens one, not one a set.
 */
export async function openDuckDb(): Promise<DuckDb> {
  const instance = await createInstance();
  return {
    async exec(sql) {
      const connection = await instance.connect();
      try {
        return (await connection.runAndReadAll(sql)).getRows() as unknown[][];
      } finally {
        connection.closeSync();
      }
    },
    close: () => instance.closeSync(),
  };
}

/** A string as a SQL literal. */
export function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
