import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { deadlineUid, foldLine, renderCalendar } from '../../../../../../services/api/routes/portfolios/calendar-ics.ts';

const calendar = {
  portfolioId: 'pf_abc',
  portfolioName: 'Fund I; Lee, Collier & more',
  now: '2026-11-28T17:00:00.000Z',
  deadlines: [
    {
      positionId: 'pos_2',
      kind: 'expires' as const,
      date: '2031-06-01',
      summary: 'Expires: Lee 2024 #0012',
      description: 'Face $1,250.00\nParcel 12-34',
    },
    {
      positionId: 'pos_1',
      kind: 'deed_application_opens' as const,
      date: '2027-04-01',
      summary: `Deed application opens: ${'Miami-Dade '.repeat(12)}é`,
      description: 'A long line ✓ '.repeat(20),
    },
  ],
};

describe('the portfolio calendar', () => {
  it('is iCalendar a standard parser reads: one all-day event per deadline with alarms 7 and 1 days before', () => {
    const text = renderCalendar(calendar);
    const root = new ICAL.Component(ICAL.parse(text));
    expect(root.getFirstPropertyValue('version')).toBe('2.0');
    // An x-property's value is left as written (escaped TEXT) by the parser.
    expect(root.getFirstPropertyValue('x-wr-calname')).toBe('Fund I\\; Lee\\, Collier & more');
    const events = root.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    expect(events.map((e) => e.uid)).toEqual([deadlineUid('pos_1', 'deed_application_opens'), deadlineUid('pos_2', 'expires')]);
    expect(events[0]!.startDate.isDate).toBe(true);
    expect(events[0]!.startDate.toString()).toBe('2027-04-01');
    expect(events[0]!.endDate.toString()).toBe('2027-04-02');
    expect(events[0]!.summary).toBe(calendar.deadlines[1]!.summary);
    expect(events[1]!.description).toBe('Face $1,250.00\nParcel 12-34');
    const alarms = root.getAllSubcomponents('vevent')[1]!.getAllSubcomponents('valarm');
    expect(alarms.map((a) => a.getFirstPropertyValue('trigger')!.toString())).toEqual(['-P7D', '-P1D']);
  });

  it('keeps every line within 75 octets, ends lines in CRLF and never splits a character', () => {
    const text = renderCalendar(calendar);
    expect(text.endsWith('\r\n')).toBe(true);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(text.replace(/\r\n /g, '')).toContain('Miami-Dade é');
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
  });

  it('gives the same UIDs however often it is fetched, so an app updates events in place', () => {
    const later = renderCalendar({ ...calendar, now: '2026-12-01T08:00:00.000Z' });
    const uids = (text: string) => [...text.matchAll(/^UID:(.*)$/gm)].map((m) => m[1]);
    expect(uids(later)).toEqual(uids(renderCalendar(calendar)));
  });
});
