import type { Job } from 'bullmq';
import type { IngestJobData, IngestResult } from '../../indexer/queue.ts';
import { printable } from './terminal-text.ts';

/**
 * Failed ingest jobs as an operator reads them: `taxcert status` used to list at
 * most 10 with no "N more", each with a reason that could be a 400-character dump of a file's
 * header. One line per job, the count always, the full reason only with --json.
 */

export const REASON_WIDTH = 160;

/** The first line of a failure reason, its runs of blanks squeezed, cut to width with an ellipsis. */
export function oneLineReason(reason: string | undefined, width = REASON_WIDTH): string {
  const first = (reason ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
  const line = first.replace(/\s+/g, ' ').trim();
  if (line === '') return '(no reason recorded)';
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}

export interface FailedJob {
  id: string;
  dataset: string;
  county: string;
  taxYear: number;
  file: string;
  attempts: number;
  failedAt: string | null;
  reason: string;
  /** The reason as the worker recorded it, every line. */
  fullReason: string;
}

export function describeFailedJob(job: Job<IngestJobData, IngestResult>): FailedJob {
  return {
    id: job.id ?? '',
    dataset: job.data.dataset,
    county: job.data.county,
    taxYear: job.data.taxYear,
    file: job.data.file,
    attempts: job.attemptsMade,
    failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    reason: oneLineReason(job.failedReason),
    fullReason: job.failedReason ?? '',
  };
}

/** "  <county> <year> <file>: <reason>" lines, then "... and N more" when the list was cut. */
export function renderFailedJobs(jobs: FailedJob[], total: number, more: string): string[] {
  // A reason can quote a county file's first line: escaped like any county text on a terminal.
  const lines = jobs.map((j) => `  ${j.id}  ${j.county} ${j.taxYear} ${printable(j.file)}: ${printable(j.reason)}`);
  if (total > jobs.length) lines.push(`  ... and ${total - jobs.length} more (${more})`);
  return lines;
}
