import { stringify } from 'csv-stringify/sync';

/**
 * CSV answers of the list endpoints: the same rows as JSON, one header line of
 * the row's field names in the row schema's order. Arrays are joined with ';'
 * and null is an empty cell, so every cell is one plain value a spreadsheet reads.
 *
 * Text cells come from county files and bidders (a holder name is whatever the
 * bidder registered), so a cell starting with = + - @ tab or CR, or their
 * fullwidth forms, would run as a formula in the customer's spreadsheet
 * (for example a HYPERLINK that sends a neighbouring cell away). csv-stringify's escape_formulas prefixes such a cell with
 * a quote (6.x covers the fullwidth forms too); numbers reach it as numbers, so
 * a negative amount stays -5 and is not escaped.
 */
export function toCsv(columns: string[], rows: Record<string, unknown>[], options: { header?: boolean } = {}): string {
  const cells = rows.map((row) => columns.map((c) => cell(row[c])));
  // A file written a page at a time (bulk snapshots) puts the header line on its first page only.
  return stringify(options.header === false ? cells : [columns, ...cells], { escape_formulas: true });
}

function cell(value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value.join(';');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** CSV when format=csv, or when the client's Accept prefers text/csv over JSON. */
export function wantsCsv(format: string | undefined, accept: string | undefined): boolean {
  if (format !== undefined) return format === 'csv';
  if (!accept) return false;
  const csv = quality(accept, 'text/csv');
  const json = Math.max(quality(accept, 'application/json'), quality(accept, '*/*'));
  return csv > 0 && csv >= json;
}

function quality(accept: string, type: string): number {
  let best = 0;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().split(';');
    if (range?.trim().toLowerCase() !== type) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    best = Math.max(best, q ? Number(q.slice(2)) || 0 : 1);
  }
  return best;
}
