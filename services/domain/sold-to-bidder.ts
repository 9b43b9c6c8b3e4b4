import type { CertificateStatus } from './records.ts';

/**
 * Which certificates a bidder bought at the sale: every one that is no longer
 * waiting for the sale (available, advertised) and was not struck to the county
 * (the record's struck_to_county flag: no bidder took it, s. 197.432, and the
 * county holds it at 18 percent). The sale summaries (certificates_sold, the
 * average bid rate) and the bid-rate analytics count exactly these, so their
 * figures agree for the same county and tax year.
 *
 * A struck certificate the county still holds is listed "available" again (the
 * generator's lifecycle); the flag, not the status or the holder's name, is what
 * says no one bid (chapter-197.ts checks that such a record names the county as
 * holder and carries 18 percent).
 */
export const UNSOLD_STATUSES = ['available', 'advertised'] as const satisfies readonly CertificateStatus[];
