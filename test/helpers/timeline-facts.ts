import type { TimelineFacts } from '../../services/domain/certificate-timeline.ts';

/** A certificate sold June 1, 2024 (deed application from April 1, 2026; expiry June 1, 2031), with changes. */
export const soldJune2024 = (o: Partial<TimelineFacts> = {}): TimelineFacts => ({
  status: 'sold',
  sale_date: '2024-06-01',
  redeemed_date: null,
  tax_deed_application_date: null,
  ...o,
});
