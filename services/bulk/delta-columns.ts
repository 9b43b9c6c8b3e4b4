import type { TypedColumns } from './write-files.ts';

/** A delta line's Parquet columns: the row after the change is one STRUCT typed like the dataset snapshot's columns. */
export function deltaParquet(row: TypedColumns): TypedColumns {
  return [
    ['op', 'VARCHAR'],
    ['id', 'VARCHAR'],
    ['event_id', 'VARCHAR'],
    ['event_type', 'VARCHAR'],
    ['changed_at', 'TIMESTAMPTZ'],
    ['row', `STRUCT(${row.map(([name, type]) => `"${name}" ${type}`).join(', ')})`],
  ];
}
