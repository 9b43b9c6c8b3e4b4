import { describe, expect, it } from 'vitest';
import { type FailedJob, oneLineReason, renderFailedJobs } from '../../../../services/cli/failed-jobs.ts';

// Operators see how many jobs failed and one line of reason each: status once listed at most 10
// of 19 failed jobs with no "N more", each with a 400-character dump of a file's header.

describe('oneLineReason', () => {
  it('keeps a short reason as it is', () => {
    expect(oneLineReason('file is empty')).toBe('file is empty');
  });
  it('takes the first non-blank line and squeezes blanks', () => {
    expect(oneLineReason('\n  wrong   county\n  at line 3\nstack...')).toBe('wrong county');
  });
  it('cuts a long dump to the width with an ellipsis', () => {
    const line = oneLineReason(`expected a header but found "${'x'.repeat(400)}"`, 60);
    expect(line).toHaveLength(60);
    expect(line.endsWith('…')).toBe(true);
  });
  it('says when no reason was recorded', () => {
    expect(oneLineReason(undefined)).toBe('(no reason recorded)');
  });
});

describe('renderFailedJobs', () => {
  const job = (n: number): FailedJob => ({
    id: `j${n}`,
    dataset: 'certificates',
    county: 'broward',
    taxYear: 2024,
    file: `/f${n}.csv`,
    attempts: 1,
    failedAt: null,
    reason: 'bad',
    fullReason: 'bad',
  });
  it('says how many more there are beyond the lines shown', () => {
    expect(renderFailedJobs([job(1), job(2)], 19, 'taxcert jobs list')).toEqual([
      '  j1  broward 2024 /f1.csv: bad',
      '  j2  broward 2024 /f2.csv: bad',
      '  ... and 17 more (taxcert jobs list)',
    ]);
  });
  it('adds nothing when every job is shown', () => {
    expect(renderFailedJobs([job(1)], 1, 'x')).toEqual(['  j1  broward 2024 /f1.csv: bad']);
  });
});
