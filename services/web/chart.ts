import type { DayCount } from '../control/billing/usage.ts';

/**
 * The overview's chart of requests per day this month: an SVG drawn on the server,
 * readable without JavaScript. This builds its geometry from the counts (pure, fixture-tested);
 * the template only prints it, with a table of the same numbers for screen readers.
 */
export interface ChartModel {
  title: string;
  description: string;
  /**
   * Geometry in percent of the plot's width (x) and height (y), so the plot stretches to any
   * width while its labels, drawn beside it at the page's text size, never scale down with it.
   */
  bars: { x: number; y: number; width: number; height: number; label: string }[];
  gridlines: { y: number; label: string }[];
  dayLabels: { x: number; label: string }[];
  /** Every day of the month so far, zeros included: the table beside the chart. */
  rows: { day: string; label: string; requests: number }[];
  total: number;
}

/** Headroom above the top gridline, in percent of the plot's height, so its label is not cut. */
const TOP = 5;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The smallest of 2, 4, 10, 20, 40, 100, ... at or above `value`: a top whose half is a whole number. */
export function niceMax(value: number): number {
  if (value <= 2) return 2;
  let p = 1;
  while (p * 10 < value) p *= 10;
  for (const m of [1, 2, 4, 10]) if (m * p >= value) return m * p;
  return 10 * p;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** month: YYYY-MM; today: YYYY-MM-DD (days after it are not drawn); counts: the ledger's days (sparse). */
export function dailyChart(month: string, today: string, counts: DayCount[]): ChartModel {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const daysInMonth = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  const monthName = MONTHS[monthNumber - 1]!;
  const byDay = new Map(counts.map((c) => [c.day, c.requests]));
  const lastDay = today.startsWith(month) ? Number(today.slice(8, 10)) : daysInMonth;

  const rows: ChartModel['rows'] = [];
  for (let d = 1; d <= lastDay; d++) {
    const day = `${month}-${String(d).padStart(2, '0')}`;
    rows.push({ day, label: `${d} ${monthName}`, requests: byDay.get(day) ?? 0 });
  }
  const total = rows.reduce((n, r) => n + r.requests, 0);
  const top = niceMax(Math.max(0, ...rows.map((r) => r.requests)));

  const plotHeight = 100 - TOP;
  const band = 100 / daysInMonth;
  const yOf = (value: number) => round2(TOP + plotHeight - (value / top) * plotHeight);

  const bars = rows
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r.requests > 0)
    .map(({ r, i }) => {
      const y = yOf(r.requests);
      return {
        x: round2(i * band + band * 0.15),
        y,
        width: round2(band * 0.7),
        height: round2(100 - y),
        label: `${r.label}: ${r.requests.toLocaleString('en-US')} ${r.requests === 1 ? 'request' : 'requests'}`,
      };
    });
  const gridlines = [0, top / 2, top].map((v) => ({ y: yOf(v), label: v.toLocaleString('en-US') }));
  const dayLabels = [1, 8, 15, 22, 29]
    .filter((d) => d <= daysInMonth)
    .map((d) => ({ x: round2((d - 1) * band + band / 2), label: String(d) }));

  return {
    title: `Requests per day, ${monthName} ${year}`,
    description: `${total.toLocaleString('en-US')} ${total === 1 ? 'request' : 'requests'} from 1 to ${lastDay} ${monthName}; busiest day ${busiest(rows)}.`,
    bars,
    gridlines,
    dayLabels,
    rows,
    total,
  };
}

function busiest(rows: ChartModel['rows']): string {
  const best = rows.reduce<ChartModel['rows'][number] | null>((b, r) => (b === null || r.requests > b.requests ? r : b), null);
  return best === null || best.requests === 0 ? 'none yet' : `${best.label} (${best.requests.toLocaleString('en-US')})`;
}
