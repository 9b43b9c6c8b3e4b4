/**
 * CSV answers of the list endpoints: the same rows as JSON, one header line of
 * the row's field names in the row schema's order. Arrays are joined with ';'
 * and null is an empty cell, so every cell is one plain value a spreadsheet reads.
 *
 * Text cells come from county files and bidders (a holder name is whatever the
 * bidder registered), so a cell starting with = + - @ tab or CR, or their
 * fullwidth forms, would run as a formula in the customer's spreadsheet
 * (for example a HYPERLINK that sends a neighbouring cell away). Such a cell is
 * prefixed with a quote; numbers are written as numbers, so a negative amount
 * stays -5 and is not escaped.
 *
 * The output is byte for byte what csv-stringify 6 writes with escape_formulas (a
 * unit test holds the two together on hostile cells): written here because the bulk
 * files put millions of rows through it, and the library's per-cell option handling
 * cost five times the time of this loop.
 */
export function toCsv(columns: string[], rows: Record<string, unknown>[], options: { header?: boolean } = {}): string {
  const lines: string[] = [];
  // A file written a page at a time (bulk snapshots) puts the header line on its first page only.
  if (options.header !== false) lines.push(columns.map(textCell).join(','));
  const cells = new Array<string>(columns.length);
  for (const row of rows) {
    for (let i = 0; i < columns.length; i++) cells[i] = cell(row[columns[i]!]);
    lines.push(cells.join(','));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return `${value}`;
  if (typeof value === 'string') return textCell(value);
  if (Array.isArray(value)) return textCell(value.join(';'));
  if (typeof value === 'object') return textCell(JSON.stringify(value));
  return textCell(String(value));
}

/** = + - @ tab CR, and the fullwidth = + - @ a spreadsheet also reads as a formula's start. */
const FORMULA_STARTS = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d, 0xff1d, 0xff0b, 0xff0d, 0xff20]);

/** A text cell: formula-escaped, then quoted (quotes doubled) when it holds a quote, a comma or a line break. */
function textCell(text: string): string {
  if (text === '') return text;
  const value = FORMULA_STARTS.has(text.charCodeAt(0)) ? `'${text}` : text;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x22 || c === 0x2c || c === 0x0a || c === 0x0d) return `"${value.replaceAll('"', '""')}"`;
  }
  return value;
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
