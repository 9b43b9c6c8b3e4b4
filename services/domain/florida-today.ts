/**
 * The calendar day in Florida (America/New_York, where the county sales run) at
 * the given instant, YYYY-MM-DD. A sale's status is judged against this day, so
 * it turns from scheduled to in_progress at midnight in Florida, not in UTC.
 */
const FLORIDA_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

export function floridaToday(now: Date): string {
  return FLORIDA_DAY.format(now);
}
