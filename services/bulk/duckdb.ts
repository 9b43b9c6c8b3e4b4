/**
 * DuckDB writes the Parquet files (a well-kept writer: typed columns, zstd pages) from the
 * gzipped NDJSON the builder has just written, so the two formats hold the same rows by
 * construction. Its memory is capped so a large county spills to disk instead of growing the
 * process. Loaded on first use: the CLI and the API import this module's callers without ever
 * writing a Parquet file.
 */
// 64 MB, one statement at a time (openDuckDb): DuckDB holds a row group of each COPY in memory,
// so two lanes converting at once needed 128 MB (at 64 MB the largest county's conversion failed
// asking for 32 MB blocks). One at a time, 64 MB converts the 1M set's largest county, the build
// takes as long (the Parquet step is about an eighth of its time) and its process peaked
// 355-381 MB instead of 376-441.
async function createInstance() {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  return DuckDBInstance.create(':memory:', { memory_limit: '64MB', threads: '1' });
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

/**
 * An instance a whole build shares; each statement runs on a connection of its own, after the one
 * before it has finished: file sets built side by side overlap their engine reads and gzip, not
 * their conversions, which keeps DuckDB's memory at one row group.
 */
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
  let last: Promise<unknown> = Promise.resolve();
  return {
    exec(sql) {
      const run = last.then(async () => {
        const connection = await instance.connect();
        try {
          return (await connection.runAndReadAll(sql)).getRows() as unknown[][];
        } finally {
          connection.closeSync();
        }
      });
      last = run.catch(() => undefined);
      return run;
    },
    close: () => instance.closeSync(),
  };
}

/** A string as a SQL literal. */
export function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
