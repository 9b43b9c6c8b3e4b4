/**
 * taxgavel-fixed: TaxGavel runs on a county mainframe heritage and exports the
 * old tape layout: no header, fixed columns, record type in column 1.
 * Positions are 1-based, in characters (UTF-8 file), text left-aligned and
 * space-padded, numbers right-aligned and zero-padded, blank = none.
 *
 * 'D' detail, 316 chars, one per certificate:
 *   1 'D' | 2-3 DOR county no. | 4-7 tax year | 8-27 cert no. | 28-57 parcel id
 *   58-59 status (SD sold, RD redeemed, AV available, AD advertised, LA lands
 *   available, TA tax deed applied, CX cancelled) | 60-71 face, cents
 *   72-83 delinquent, cents | 84-88 rate, hundredths of a percent (01800 = 18)
 *   89-96 sale date YYYYMMDD | 97 struck to county Y/N | 98 redeemed Y/N
 *   99-106 redeemed date | 107-118 redemption amount, cents | 119-126 tax deed
 *   application date | 127-186 holder (blank when the county holds it)
 *   187-246 owner | 247-306 situs address | 307-316 batch
 * 'L' legal description, 80 chars, zero or more after their 'D': 1 'L' |
 *   2-3 length of the text | 4 'C' text continues in the next L, 'N' a line
 *   break follows, 'R' a CR LF follows, 'E' last piece | 5-80 text.
 * 'T' trailer, 16 chars, last line: 1 'T' | 2-3 DOR county no. | 4-7 tax year |
 *   8-16 number of D records. A short last line, a missing trailer or a count
 *   that disagrees means the file was cut off; a trailer for another county
 *   rejects the file.
 */
export const D_LENGTH = 316;
export const L_LENGTH = 80;
export const L_TEXT = 76;
export const T_LENGTH = 16;

/** [field, start (1-based), width] of the D record. */
export const D_FIELDS = [
  ['county', 2, 2],
  ['year', 4, 4],
  ['certificate', 8, 20],
  ['parcel', 28, 30],
  ['status', 58, 2],
  ['face', 60, 12],
  ['delinquent', 72, 12],
  ['rate', 84, 5],
  ['sale_date', 89, 8],
  ['struck', 97, 1],
  ['redeemed', 98, 1],
  ['redeemed_date', 99, 8],
  ['redeemed_amount', 107, 12],
  ['tda_date', 119, 8],
  ['holder', 127, 60],
  ['owner', 187, 60],
  ['address', 247, 60],
  ['batch', 307, 10],
] as const;

export const TAXGAVEL_STATUS: Readonly<Record<string, string>> = {
  sold: 'SD',
  redeemed: 'RD',
  available: 'AV',
  advertised: 'AD',
  lands_available: 'LA',
  tax_deed_applied: 'TA',
  cancelled: 'CX',
};
