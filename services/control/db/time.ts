/** ISO-8601 UTC text with milliseconds, the one timestamp form the control tables store (sql.ts: `now_iso()`). */
export function isoTimestamp(at: Date | string): string {
  const date = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a timestamp: ${JSON.stringify(String(at))}`);
  return date.toISOString();
}
