/** How the account page writes numbers, money and times: plainly, in English, times in UTC (as the API counts). */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** 1900 -> "19 USD", 5 -> "0.05 USD". */
export function usd(cents: number): string {
  return cents % 100 === 0 ? `${count(cents / 100)} USD` : `${(cents / 100).toFixed(2)} USD`;
}

/** "5 May 2026". */
export function day(iso: string): string {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** "5 May 2026, 14:03 UTC". */
export function moment(iso: string): string {
  const d = new Date(iso);
  return `${day(iso)}, ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')} UTC`;
}
