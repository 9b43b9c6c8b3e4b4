import { describe, expect, it } from 'vitest';
import { dailyChart, niceMax } from '../../../../services/web/chart.ts';

describe('the requests-per-day chart', () => {
  it('tops the scale at the next of 2, 4, 10, 20, 40, 100, ... so the middle line is a whole number', () => {
    expect([0, 1, 2, 3, 4, 5, 10, 11, 25, 40, 41, 99, 101, 12_345].map(niceMax)).toEqual([
      2, 2, 2, 4, 4, 10, 10, 20, 40, 40, 100, 100, 200, 20_000,
    ]);
  });

  it('draws a bar per day with requests, over the whole month, up to today only', () => {
    const chart = dailyChart('2026-02', '2026-02-05', [
      { day: '2026-02-02', requests: 3 },
      { day: '2026-02-05', requests: 1 },
    ]);
    // In percent of the plot: February has 28 bands of 100 / 28 = 3.57; a bar is 70% of its band,
    // centred; the top is 4, drawn 5% below the plot's top edge.
    expect(chart).toEqual({
      title: 'Requests per day, February 2026',
      description: '4 requests from 1 to 5 February; busiest day 2 February (3).',
      bars: [
        { x: 4.11, y: 28.75, width: 2.5, height: 71.25, label: '2 February: 3 requests' },
        { x: 14.82, y: 76.25, width: 2.5, height: 23.75, label: '5 February: 1 request' },
      ],
      gridlines: [
        { y: 100, label: '0' },
        { y: 52.5, label: '2' },
        { y: 5, label: '4' },
      ],
      dayLabels: [
        { x: 1.79, label: '1' },
        { x: 26.79, label: '8' },
        { x: 51.79, label: '15' },
        { x: 76.79, label: '22' },
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
    // April: 30 bands of 3.33%; 12,000 of a 20,000 top is 60% of the 95% below the headroom.
    expect(past.bars).toEqual([{ x: 97.17, y: 43, width: 2.33, height: 57, label: '30 April: 12,000 requests' }]);
    expect(past.gridlines.map((g) => g.label)).toEqual(['0', '10,000', '20,000']);
  });
});
