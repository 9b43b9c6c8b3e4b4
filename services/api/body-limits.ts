/**
 * How large a write's body may be, in one place both the writes and the error answers read
 * (the 413 names the limit of the route that refused).
 */

/** The largest JSON body a write takes; more is a 413 before anything is parsed. */
export const WRITE_BODY_LIMIT = 64 * 1024;

/**
 * The body limit of the one write that takes a list of up to 10,000 lines (POST
 * /portfolios/{id}/positions): 10,000 lines of about 400 bytes of JSON each, county, number,
 * year, date, amount and a note of a few hundred characters. Still a 413 before anything is
 * parsed beyond it.
 */
export const BULK_WRITE_BODY_LIMIT = 4 * 1024 * 1024;

/** A body limit as the 413 message and the document say it: "64 KiB", "4 MiB". */
export function bodySize(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}
