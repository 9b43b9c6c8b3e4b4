import { describe, expect, it } from 'vitest';
import { dailyChart, niceMax } from '../../../services/web/chart.ts';

describe('the requests-per-day chart', () => {
  it('tops the scale at the next of 2, 4, 10, 20, 40, 100, ... so the middle line is a whole number', () => {
    expect([0, 1, 2, 3, 4, 5, 10, 11, 25, 40, 41, 99, 101, 12_345].map(niceMax)).toEqual([2, 2, 2, 4, 4, 10, 10, 20, 40, 40, 100, 100, 200, 20_000]);
  });

  it('draws a bar per day with requests, over the whole month, up to today only', () => {
    const chart = dailyChart('2026-02', '2026-02-05', [
      { day: '2026-02-02', requests: 3 },
      { day: '2026-02-05', requests: 1 },
    ]);
    // February has 28 bands of 588 / 28 = 21 units; a bar is 70% of its band, centred; the top is 4.
    expect(chart).toEqual({
      width: 640,
      height: 220,
      title: 'Requests per day, February 2026',
      description: '4 requests from 1 to 5 February; busiest day 2 February (3).',
      bars: [
        { x: 68.2, y: 56.5, width: 14.7, height: 139.5, label: '2 February: 3 requests' },
        { x: 131.2, y: 149.5, width: 14.7, height: 46.5, label: '5 February: 1 request' },
      ],
      gridlines: [
        { y: 196, label: '0' },
        { y: 103, label: '2' },
        { y: 10, label: '4' },
      ],
      dayLabels: [
        { x: 54.5, label: '1' },
        { x: 201.5, label: '8' },
        { x: 348.5, label: '15' },
        { x: 495.5, label: '22' },
      ],
      rows: [
        { day: '2026-02-01', label: '1 February', requests: 0 },
        { day: '2026-02-02', label: '2 February', requests: 3 },
        { day: '2026-02-03', label: '3 February', requests: 0 },
        { day: '2026-02-04', label: '4 February', requests: 0 },
        { day: '2026-02-05', label: '5 February', requests: 1 },
      ],
      total: 4,
    });
  });

  it('says so when nothing was asked yet, and shows a past month whole', () => {
    const empty = dailyChart('2026-07', '2026-07-01', []);
    expect(empty.bars).toEqual([]);
    expect(empty.description).toBe('0 requests from 1 to 1 July; busiest day none yet.');
    expect(empty.gridlines.map((g) => g.label)).toEqual(['0', '1', '2']);
    expect(empty.dayLabels.map((d) => d.label)).toEqual(['1', '8', '15', '22', '29']);
    const past = dailyChart('2026-04', '2026-05-03', [{ day: '2026-04-30', requests: 12_000 }]);
    expect(past.rows).toHaveLength(30);
    // April: 30 bands of 19.6 units; 12,000 of a 20,000 top is 60% of the 186-unit plot.
    expect(past.bars).toEqual([{ x: 615.3, y: 84.4, width: 13.7, height: 111.6, label: '30 April: 12,000 requests' }]);
    expect(past.gridlines.map((g) => g.label)).toEqual(['0', '10,000', '20,000']);
  });
});
