import { D_FIELDS, L_TEXT, TAXGAVEL_STATUS } from '../../formats/taxgavel-fixed.ts';
import { formatDate } from '../../formats/dates.ts';
import { formatCents, toCents } from '../../formats/money.ts';
import { holderCell } from './sink.ts';
import { formatWriter } from './format-writer.ts';

/**
 * Layout: see services/formats/taxgavel-fixed.ts. A value that does not fit its
 * columns (a 61-character owner, a rate like 0.125) is a generator bug: the
 * writer throws rather than cut it, since a cut value would not round-trip.
 */
const WIDTH: Record<string, number> = Object.fromEntries(D_FIELDS.map(([name, , width]) => [name, width]));

function text(name: string, value: string | null): string {
  const width = WIDTH[name] ?? 0;
  const v = value ?? '';
  if (v.length > width || /[\r\n]/.test(v))
    throw new Error(`taxgavel-fixed: ${name} ${JSON.stringify(v)} does not fit ${width} characters on one line`);
  return v.padEnd(width, ' ');
}

function cents(name: string, dollars: number | null): string {
  const width = WIDTH[name] ?? 0;
  if (dollars === null) return ' '.repeat(width);
  const s = formatCents(dollars, width);
  if (s.length > width) throw new Error(`taxgavel-fixed: ${name} ${dollars} does not fit ${width} digits of cents`);
  return s;
}

function rate(percent: number): string {
  const hundredths = toCents(percent);
  if (Math.abs(hundredths - percent * 100) > 1e-6)
    throw new Error(`taxgavel-fixed: interest rate ${percent} is finer than hundredths of a percent`);
  return String(hundredths).padStart(5, '0');
}

const ymd = (d: string | null) => (d === null ? '        ' : formatDate(d, 'YYYYMMDD'));

/** Splits a legal description into 'L' records: lines at line breaks, then pieces of at most 76 characters. */
function legalRecords(legal: string): string {
  let out = '';
  const parts = legal.split(/(\r?\n)/);
  for (let i = 0; i < parts.length; i += 2) {
    let line = parts[i] ?? '';
    const brk = parts[i + 1];
    const last = i + 2 >= parts.length;
    do {
      let piece = line.slice(0, L_TEXT);
      // never split a surrogate pair across two records
      if (piece.length === L_TEXT && /[\uD800-\uDBFF]$/.test(piece)) piece = piece.slice(0, -1);
      line = line.slice(piece.length);
      const flag = line.length > 0 ? 'C' : brk === '\n' ? 'N' : brk === '\r\n' ? 'R' : last ? 'E' : 'C';
      out += `L${String(piece.length).padStart(2, '0')}${flag}${piece.padEnd(L_TEXT, ' ')}\n`;
    } while (line.length > 0);
  }
  return out;
}

export const taxgavelFixedWriter = formatWriter('taxgavel-fixed', (ctx) => {
  const dor = ctx.county.dor.padStart(2, '0');
  return {
    row: (r) => {
      const d = [
        'D',
        dor,
        String(r.tax_year),
        text('certificate', r.certificate_number),
        text('parcel', r.parcel_id),
        TAXGAVEL_STATUS[r.status] ?? '  ',
        cents('face', r.face_amount),
        cents('delinquent', r.delinquent_amount),
        rate(r.interest_rate),
        ymd(r.sale_date),
        r.struck_to_county ? 'Y' : 'N',
        r.redeemed ? 'Y' : 'N',
        ymd(r.redeemed_date),
        cents('redeemed_amount', r.redemption_amount),
        ymd(r.tax_deed_application_date),
        text('holder', holderCell(r, ctx.county)),
        text('owner', r.owner_name),
        text('address', r.site_address_full),
        text('batch', r.batch_number),
      ].join('');
      return `${d}\n${r.legal_description ? legalRecords(r.legal_description) : ''}`;
    },
    trailer: (n) => `T${dor}${ctx.taxYear}${String(n).padStart(9, '0')}\n`,
  };
});
