/**
 * A portfolio's deadlines as an iCalendar (RFC 5545) document that calendar apps subscribe to:
 * one all-day event per upcoming deadline of each position, each with alarms 7 days and 1 day
 * before. Pure: the entries and the time of the answer in, the text out.
 *
 * Stable UIDs (the position and the kind of deadline) let an app update an event in place when a
 * later fetch moves it, and drop it when it is no longer listed (redeemed, expired, deleted).
 * Text is escaped (backslash, semicolon, comma, newline) and lines are folded at 75 octets, never
 * inside a UTF-8 character; lines end in CRLF.
 */

export const DEADLINE_KINDS = ['deed_application_opens', 'expires'] as const;
export type DeadlineKind = (typeof DEADLINE_KINDS)[number];

export interface CalendarDeadline {
  positionId: string;
  kind: DeadlineKind;
  /** YYYY-MM-DD: the day of the deadline (an all-day event). */
  date: string;
  summary: string;
  description: string;
}

export interface CalendarOf {
  portfolioId: string;
  portfolioName: string;
  deadlines: readonly CalendarDeadline[];
  /** When the document was made (DTSTAMP), as an ISO instant. */
  now: string;
}

/** The domain UIDs are made in: unique to this service, so no other calendar's events collide. */
const UID_DOMAIN = 'calendar.taxcert.example';
const ALARM_DAYS = [7, 1] as const;

function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Folds a content line at 75 octets: CRLF and one space before each continuation (RFC 5545 3.1). */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8');
    const limit = out.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

const basicDate = (iso: string) => iso.replace(/-/g, '');
const basicInstant = (iso: string) => `${iso.slice(0, 19).replace(/[-:]/g, '')}Z`;

function nextDay(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

export function deadlineUid(positionId: string, kind: DeadlineKind): string {
  return `${positionId}-${kind}@${UID_DOMAIN}`;
}

export function renderCalendar(c: CalendarOf): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Tax Certificate Data Service//Portfolio deadlines//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(c.portfolioName)}`,
    'X-WR-CALDESC:Florida tax certificate deadlines',
  ];
  const stamp = basicInstant(c.now);
  const sorted = [...c.deadlines].sort((a, b) =>
    a.date !== b.date ? (a.date < b.date ? -1 : 1) : deadlineUid(a.positionId, a.kind) < deadlineUid(b.positionId, b.kind) ? -1 : 1,
  );
  for (const d of sorted) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${deadlineUid(d.positionId, d.kind)}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${basicDate(d.date)}`,
      `DTEND;VALUE=DATE:${basicDate(nextDay(d.date))}`,
      `SUMMARY:${escapeText(d.summary)}`,
      `DESCRIPTION:${escapeText(d.description)}`,
      'TRANSP:TRANSPARENT',
      `CATEGORIES:${d.kind === 'expires' ? 'Expiry' : 'Deed application'}`,
    );
    for (const days of ALARM_DAYS)
      lines.push(
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        `TRIGGER:-P${days}D`,
        `DESCRIPTION:${escapeText(`${d.summary} in ${days} day${days === 1 ? '' : 's'}`)}`,
        'END:VALARM',
      );
    lines.push('END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
