import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { namesTheCounty } from './chapter-197.ts';
import { countyHolderName } from './county-facts.ts';

/**
 * Holder groups: institutions bid through families of numbered
 * entities, so "FL TAX LIEN FUND 11 LLC" and "Fl Tax Lien Fund 3, L.L.C." are one
 * competitor. The rule is computed at ingest and stored on each certificate, so the
 * analytics read only aggregates. It reads the spelling only, never who wrote it:
 *
 *  1. Accents folded, case ignored; "&" and "and" ignored (both dropped), "." and "'"
 *     removed inside words (L.L.C. is LLC), any other punctuation separates words.
 *  2. "<bank> AS CUSTODIAN FOR X" (also CUSTODIAN FOR, CUST FOR, C/F, AS NOMINEE FOR)
 *     is X: the bank holds the certificate for X, who is the bidder.
 *  3. From the end, repeatedly: a legal form (LLC, L L C, INC, CORP, LP, LLLP, LTD, ...)
 *     is dropped; and in an entity's name a series designator is dropped: a number or
 *     year ("11", "2019"), a vintage ("2021-A"), a roman numeral up to XXXIX, or
 *     "SERIES x", with a "NO" before it ("FUND NO. 3").
 *  4. A name is an entity's when it had a legal form, a SERIES, or an entity word
 *     (FUND, CAPITAL, LIEN, TRUST, ...). A person's name keeps its trailing numeral:
 *     "JOHN SMITH II" is not "JOHN SMITH" (father and son bid separately), and JR/SR
 *     are never dropped.
 *  5. At least one word always remains ("1234 LLC" is "1234").
 *  6. The alias file (data/holder-aliases.json) joins spellings the rule cannot see.
 *  7. The county's own certificates (struck to the county, or held under a name that
 *     names the county) form one group per county, whatever the spelling.
 *
 * The group id is "grp_" + 20 hex digits of the SHA-256 of the group key, so it is
 * stable across ingests and processes. Each certificate also stores a display
 * candidate (its spelling with the dropped words removed, in its own case); the read
 * names a group by its most common candidate.
 */

export interface HolderGroup {
  holder_group_id: string;
  /** This spelling's display candidate for its group's name. */
  holder_group_name: string;
  county_held: boolean;
}

const LEGAL_FORMS = new Set([
  'LLC',
  'LC',
  'PLLC',
  'LLP',
  'LLLP',
  'LP',
  'INC',
  'INCORPORATED',
  'CORP',
  'CORPORATION',
  'LTD',
  'LIMITED',
  'CO',
  'COMPANY',
  'PA',
  'PC',
  'NA',
  'LLLC',
]);
/** Legal forms a county writes with spaces ("L L C" once the dots are gone). */
const SPACED_FORMS = [
  ['L', 'L', 'C'],
  ['L', 'L', 'L', 'P'],
  ['L', 'L', 'P'],
  ['L', 'P'],
  ['N', 'A'],
  ['P', 'A'],
];
const ENTITY_WORDS = new Set([
  'FUND',
  'FUNDS',
  'CAPITAL',
  'LIEN',
  'LIENS',
  'TAX',
  'TAXES',
  'INVESTMENT',
  'INVESTMENTS',
  'INVESTORS',
  'HOLDINGS',
  'PARTNERS',
  'PARTNERSHIP',
  'PROPERTIES',
  'GROUP',
  'BANK',
  'TRUST',
  'VENTURES',
  'ASSETS',
  'EQUITY',
  'FINANCIAL',
  'LENDING',
  'REALTY',
  'MANAGEMENT',
  'ENTERPRISES',
  'CERTIFICATE',
  'CERTIFICATES',
  'PORTFOLIO',
  'ACQUISITIONS',
  'ASSOCIATES',
  'SERIES',
]);
const CUSTODY_WORDS = new Set(['CUSTODIAN', 'CUST', 'NOMINEE']);
const ROMAN = /^(X{0,3})(IX|IV|V?I{0,3})$/;
const NUMBER = /^\d+$/;

interface Word {
  key: string;
  text: string;
}

const fold = (w: string) => w.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase();

/** The words of a spelling: each with its key (folded, upper case; "&" is AND) and its text as written. */
function words(name: string): Word[] {
  return name
    .replace(/\bC\s*\/\s*F\b/gi, ' CUSTODIAN FOR ')
    .replace(/&/g, ' & ')
    .replace(/['.\u2019]/g, '')
    .split(/[^\p{L}\p{N}\p{M}&]+/u)
    .filter((w) => w !== '')
    .map((w) => ({ key: w === '&' ? 'AND' : fold(w), text: w }));
}

/** After "<bank> AS CUSTODIAN FOR", the words of the bidder; the whole name when there is none. */
function custodyTarget(ws: Word[]): Word[] {
  for (let i = 1; i < ws.length - 2; i++) {
    if (CUSTODY_WORDS.has(ws[i]!.key) && (ws[i + 1]!.key === 'FOR' || ws[i + 1]!.key === 'OF')) return ws.slice(i + 2);
  }
  return ws;
}

const isRoman = (k: string) => k !== '' && ROMAN.test(k);
const endsWith = (ws: Word[], form: string[]) =>
  ws.length > form.length && form.every((f, i) => ws[ws.length - form.length + i]!.key === f);

/** How many trailing words are a legal form (0 when none). */
function legalFormAtEnd(ws: Word[]): number {
  if (ws.length > 1 && LEGAL_FORMS.has(ws[ws.length - 1]!.key)) return 1;
  for (const form of SPACED_FORMS) if (endsWith(ws, form)) return form.length;
  return 0;
}

/** A vintage written as one word: "2021A". */
const VINTAGE = /^\d+[A-Z]$/;
const NUMBER_WORDS = new Set(['NO', 'NUMBER', 'NBR']);

/**
 * How many trailing words are a series designator (0 when none): "SERIES x"; a number,
 * year or roman numeral; a vintage ("2021-A", "2021 A", "2021A"); each with the "NO"
 * that may stand before it ("FUND NO. 3" is "FUND 3"), so one family's entities meet.
 */
function seriesAtEnd(ws: Word[]): number {
  const n = ws.length;
  if (n > 2 && ws[n - 2]!.key === 'SERIES') return 2;
  const last = ws[n - 1]!.key;
  const numberWord = (at: number) => (at > 1 && NUMBER_WORDS.has(ws[at - 1]!.key) ? 1 : 0);
  if (n > 2 && /^[A-Z]$/.test(last) && NUMBER.test(ws[n - 2]!.key)) return 2 + numberWord(n - 2);
  if (n > 1 && (NUMBER.test(last) || VINTAGE.test(last) || isRoman(last))) return 1 + numberWord(n - 1);
  return 0;
}

/** Rule 4: the words are an entity's when they hold a legal form or an entity word. */
function isEntity(ws: Word[]): boolean {
  return ws.some((w) => ENTITY_WORDS.has(w.key) || LEGAL_FORMS.has(w.key)) || legalFormAtEnd(ws) > 0;
}

/**
 * Whether a name is an entity's (an LLC, a fund, a trust, a bank) rather than a person's, by
 * rule 4 over the whole name as written (rules 1 and 3's reading of its words). The owner type
 * of a certificate's parcel (owner-type.ts) is this same rule.
 */
export function isEntityName(name: string): boolean {
  return isEntity(words(name));
}

/** The group key of a holder spelling and its display candidate (rules 1-5). */
export function holderGroupKey(name: string): { key: string; display: string } {
  let ws = custodyTarget(words(name));
  const entity = isEntity(ws);
  for (;;) {
    const drop = legalFormAtEnd(ws) || (entity ? seriesAtEnd(ws) : 0);
    if (drop === 0) break;
    ws = ws.slice(0, ws.length - drop);
  }
  // "&" and "and" never separate spellings; a leading or trailing one is not shown.
  const shown = ws.slice(ws[0]?.key === 'AND' ? 1 : 0, ws.at(-1)?.key === 'AND' && ws.length > 1 ? -1 : undefined);
  return {
    key: ws
      .filter((w) => w.key !== 'AND')
      .map((w) => w.key)
      .join(' '),
    display: shown.map((w) => w.text).join(' '),
  };
}

const AliasFile = z.object({
  groups: z.array(z.object({ name: z.string().min(1), spellings: z.array(z.string().min(1)).min(1), why: z.string() })),
});

/** Group key of a spelling -> the key and display name of the group the alias file puts it in. */
export type HolderAliases = ReadonlyMap<string, { key: string; name: string }>;

/** Normalizes an alias file's entries with the rule itself, so an entry matches every spelling of its names. */
export function parseHolderAliases(file: unknown): HolderAliases {
  const out = new Map<string, { key: string; name: string }>();
  for (const group of AliasFile.parse(file).groups) {
    const target = { key: holderGroupKey(group.name).key, name: group.name };
    for (const spelling of [group.name, ...group.spellings]) {
      const { key } = holderGroupKey(spelling);
      const seen = out.get(key);
      if (seen && seen.key !== target.key) throw new Error(`holder alias ${JSON.stringify(spelling)} is in two groups`);
      out.set(key, target);
    }
  }
  return out;
}

/** data/holder-aliases.json, read once by the process that builds certificates and passed down. */
export function loadHolderAliases(): HolderAliases {
  const url = new URL('./data/holder-aliases.json', import.meta.url);
  return parseHolderAliases(JSON.parse(readFileSync(url, 'utf8')));
}

export function holderGroupId(groupKey: string): string {
  return `grp_${createHash('sha256').update(groupKey).digest('hex').slice(0, 20)}`;
}

export interface HolderGroupFacts {
  holder_name: string;
  county_slug: string;
  county_name: string;
  struck_to_county: boolean;
}

/** The group of one certificate's holder (rules 1-7). Pure: the aliases are an argument. */
export function holderGroup(c: HolderGroupFacts, aliases: HolderAliases): HolderGroup {
  if (c.struck_to_county || namesTheCounty(c.holder_name, c.county_name))
    return {
      holder_group_id: holderGroupId(`county:${c.county_slug}`),
      holder_group_name: countyHolderName(c.county_name),
      county_held: true,
    };
  const own = holderGroupKey(c.holder_name);
  const alias = aliases.get(own.key);
  return {
    holder_group_id: holderGroupId(`holder:${alias?.key ?? own.key}`),
    holder_group_name: alias?.name ?? own.display,
    county_held: false,
  };
}
