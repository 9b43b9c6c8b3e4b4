import { describe, expect, it } from 'vitest';
import { maxAttempts, retryDelay } from '../../../../indexer/webhooks/retry-schedule.ts';
import { loadConfig, parseDuration } from '../../../../services/config.ts';

describe('the retry schedule', () => {
  const schedule = loadConfig({
    DATABASE_PATH: '/tmp/never-opened.db',
    KEY_HASH_SECRET: 'x'.repeat(32),
    WEBHOOK_SECRET_KEY: 'y'.repeat(32),
  }).WEBHOOK_RETRY_SCHEDULE;

  it('is by default about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: eight attempts over about 28 hours', () => {
    expect(schedule).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(maxAttempts(schedule)).toBe(8);
    const total = schedule.reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeCloseTo(27.6, 1);
  });

  it('waits the scheduled time with +-10% jitter after each failed attempt, and nothing after the last', () => {
    expect(retryDelay(schedule, 1, 0.5)).toBe(5_000);
    expect(retryDelay(schedule, 1, 0)).toBe(4_500);
    expect(retryDelay(schedule, 1, 0.999_999)).toBe(5_500);
    expect(retryDelay(schedule, 2, 0.5)).toBe(300_000);
    expect(retryDelay(schedule, 7, 0.25)).toBe(34_200_000);
    expect(retryDelay(schedule, 8, 0.5)).toBeNull();
    expect(retryDelay([], 1, 0.5)).toBeNull();
  });

  it('reads durations as the configuration writes them, and refuses anything else by name', () => {
    expect(['250ms', '5s', '1.5s', '30m', '2h', '3d'].map(parseDuration)).toEqual([250, 5_000, 1_500, 1_800_000, 7_200_000, 259_200_000]);
    for (const bad of ['5', 's', '-5s', '5 s', '5w', '']) expect(parseDuration(bad), bad).toBeNull();
    const base = { DATABASE_PATH: '/tmp/never-opened.db', KEY_HASH_SECRET: 'x'.repeat(32), WEBHOOK_SECRET_KEY: 'y'.repeat(32) };
    expect(loadConfig({ ...base, WEBHOOK_RETRY_SCHEDULE: '100ms, 200ms,1s' }).WEBHOOK_RETRY_SCHEDULE).toEqual([100, 200, 1000]);
    expect(loadConfig({ ...base, WEBHOOK_DISABLE_AFTER: '12h' }).WEBHOOK_DISABLE_AFTER).toBe(43_200_000);
    expect(() => loadConfig({ ...base, WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow(
      /^WEBHOOK_RETRY_SCHEDULE: must be 1 to 20 comma-separated durations/,
    );
    expect(() => loadConfig({ ...base, WEBHOOK_DISABLE_AFTER: 'never' })).toThrow(/^WEBHOOK_DISABLE_AFTER: must be a duration/);
  });
});
