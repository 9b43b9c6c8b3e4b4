import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { countyHolderName } from '../../../../services/domain/county-facts.ts';
import { apportion, type GeneratedState, generateState } from '../../../../services/generator/generate-state.ts';
import { redemptionAmountOn } from '../../../../services/generator/redemption.ts';
import { normalizeHolderName } from '../../../../services/domain/ids.ts';
import { CERTIFICATE_STATUSES, CertificateRecord } from '../../../../services/domain/records.ts';
import { loadRegistry } from '../../../../services/domain/registry.ts';

const registry = loadRegistry();
const TODAY = '2026-11-22';
const make = (certificates: number, seed: number, today = TODAY): GeneratedState => generateState({ certificates, seed, today, registry });

function fingerprint(state: GeneratedState): string {
  const hash = createHash('sha256');
  for (const r of state.allRecords()) hash.update(JSON.stringify(r));
  return hash.digest('hex');
}

describe('apportion', () => {
  it('splits a total by weight with largest remainders, earlier entries winning ties', () => {
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(apportion(7, [5, 0, 2])).toEqual([5, 0, 2]);
    expect(apportion(1, [1, 3])).toEqual([0, 1]);
    expect(apportion(0, [1, 2])).toEqual([0, 0]);
    expect(apportion(1_000_003, [31, 22, 16, 14, 10, 9]).reduce((a, b) => a + b, 0)).toBe(1_000_003);
  });
});

describe('the plan', () => {
  const state = make(10_000, 1);

  it('models 8 certificate-level counties (6 large, 2 small rural) covering every channel in use, 8 vendor-tracked, the rest directory-only', () => {
    const by = (c: string) => state.counties.filter((x) => x.coverage === c).map((x) => x.county.slug);
    expect(by('certificate_level').sort()).toEqual([
      'broward',
      'duval',
      'franklin',
      'gulf',
      'hillsborough',
      'miami-dade',
      'orange',
      'pinellas',
    ]);
    expect(by('vendor_tracked')).toHaveLength(8);
    expect(by('directory_only')).toHaveLength(67 - 16);
    const channels = state.counties.filter((c) => c.coverage === 'certificate_level').map((c) => c.channel?.channel);
    expect(new Set(channels)).toEqual(new Set(['certbid', 'lienport', 'taxgavel', 'parcelmart', 'bidvault', 'county_local']));
    for (const c of state.counties) if (c.coverage === 'directory_only') expect(c.channel).toBeNull();
  });

  it('has one file per (county, tax year) 2015..2025, rows summing to N, Miami-Dade biggest', () => {
    expect(state.files).toHaveLength(8 * 11);
    expect(new Set(state.files.map((f) => `${f.county.slug}/${f.taxYear}`)).size).toBe(88);
    expect(state.files.reduce((a, f) => a + f.rows, 0)).toBe(10_000);
    const perCounty = new Map<string, number>();
    for (const f of state.files) perCounty.set(f.county.slug, (perCounty.get(f.county.slug) ?? 0) + f.rows);
    const biggest = [...perCounty].sort((a, b) => b[1] - a[1])[0]?.[0];
    expect(biggest).toBe('miami-dade');
  });

  it('holds each sale on business days in the last two weeks of May of tax year + 1, all by June 1', () => {
    for (const f of state.files) {
      expect(f.saleDates.length).toBeGreaterThanOrEqual(1);
      for (const d of f.saleDates) {
        expect(d.slice(0, 4)).toBe(String(f.taxYear + 1));
        expect(d.slice(5) >= '05-18' && d.slice(5) <= '06-01').toBe(true);
        expect([0, 6]).not.toContain(new Date(`${d}T00:00:00Z`).getUTCDay());
      }
    }
  });

  it('streams: the first record of a million-certificate state comes without generating the rest', () => {
    const big = make(1_000_000, 3);
    const first = big.allRecords().next();
    expect(first.done).toBe(false);
    expect(big.files.reduce((a, f) => a + f.rows, 0)).toBe(1_000_000);
  });
});

describe('determinism', () => {
  it('the same seed gives identical records', () => {
    expect(fingerprint(make(3000, 42))).toBe(fingerprint(make(3000, 42)));
  });

  it('different seeds give different certificate numbers and records', () => {
    const numbers = (s: GeneratedState) => s.files.map((f) => state1stNumber(s, f));
    const state1stNumber = (s: GeneratedState, f: GeneratedState['files'][number]) => s.records(f).next().value?.certificate_number;
    const a = numbers(make(3000, 1));
    const b = numbers(make(3000, 2));
    const same = a.filter((n, i) => n === b[i]).length;
    expect(same).toBeLessThan(a.length / 10);
    expect(fingerprint(make(500, 1))).not.toBe(fingerprint(make(500, 2)));
  });
});

describe('statuses', () => {
  // In November every sale of the modelled years is over and the next list is not advertised
  // until spring: nothing is `advertised`. Between the advertising and the sale, all seven appear.
  const allButAdvertised = CERTIFICATE_STATUSES.filter((s) => s !== 'advertised').sort();

  // About 2% of certificates are struck to the county (the calibrated market, market.ts), and few
  // of those reach the lands-available list: it takes thousands of records to see every status.
  it('all but advertised appear in 20,000 records as of November', () => {
    const seen = new Set([...make(20_000, 20261122).allRecords()].map((r) => r.status));
    expect([...seen].sort()).toEqual(allButAdvertised);
  });

  it.each([1, 2, 3, 4, 5])('all but advertised and lands available appear in 2,000 records as of November (seed %i)', (seed) => {
    const seen = new Set([...make(2000, seed).allRecords()].map((r) => r.status));
    expect([...seen].filter((s) => s !== 'lands_available').sort()).toEqual(allButAdvertised.filter((s) => s !== 'lands_available'));
  });

  it('all seven appear in 2,000 records as of a day between the advertising and the sale', () => {
    const seen = new Set([...make(2000, 20261122, '2026-05-12').allRecords()].map((r) => r.status));
    expect([...seen].sort()).toEqual([...CERTIFICATE_STATUSES].sort());
  });
});

describe('5,000 records', () => {
  let records: CertificateRecord[] = [];
  beforeAll(() => {
    records = [...make(5000, 7).allRecords()];
  });

  it('are all valid canonical records (section 3 rules included)', () => {
    const bad = records.map((r) => CertificateRecord.safeParse(r)).filter((p) => !p.success);
    expect(bad.map((p) => p.error?.issues)).toEqual([]);
    expect(records).toHaveLength(5000);
  });

  it('have unique ids and certificate numbers unique per county-year', () => {
    expect(new Set(records.map((r) => r.id)).size).toBe(5000);
    expect(new Set(records.map((r) => `${r.county_slug}|${r.tax_year}|${r.certificate_number}`)).size).toBe(5000);
  });

  it('apply for tax deeds only from April 1 of the sale year + 2, and never after today', () => {
    const applied = records.filter((r) => r.tax_deed_application_date !== null);
    expect(applied.length).toBeGreaterThan(50);
    for (const r of applied) {
      expect(r.tax_deed_application_date! >= `${Number(r.sale_date.slice(0, 4)) + 2}-04-01`).toBe(true);
      expect(r.tax_deed_application_date! <= TODAY).toBe(true);
    }
    for (const r of records.filter((x) => x.status === 'tax_deed_applied' || x.status === 'lands_available'))
      expect(r.tax_deed_application_date).not.toBeNull();
  });

  it('redeem for exactly the redemption function, on or before today', () => {
    const redeemed = records.filter((r) => r.redeemed);
    expect(redeemed.length).toBeGreaterThan(2500);
    for (const r of redeemed) {
      expect(r.redemption_amount).toBe(redemptionAmountOn(r.face_amount, r.interest_rate, r.sale_date, r.redeemed_date!));
      expect(r.redeemed_date! <= TODAY).toBe(true);
    }
    for (const r of records) expect(r.redeemed).toBe(r.status === 'redeemed');
  });

  it('bid in quarter points between 0 and 18, with 0 and 0.25 bids present', () => {
    for (const r of records) {
      expect(Number.isInteger(r.interest_rate * 4)).toBe(true);
      expect(r.interest_rate).toBeGreaterThanOrEqual(0);
      expect(r.interest_rate).toBeLessThanOrEqual(18);
    }
    const rates = new Set(records.map((r) => r.interest_rate));
    for (const rate of [0, 0.25, 18]) expect(rates).toContain(rate);
    // The rates above 0.25 cluster on round-ish values (market.ts RATE_LADDER), as real sales do.
    expect(rates.size).toBeGreaterThan(20);
  });

  it('keep struck, available and advertised certificates with the county at 18', () => {
    const countyHeld = records.filter((r) => r.struck_to_county || r.status === 'available' || r.status === 'advertised');
    // 0.2-8.5% a county-year (market.ts): about 2% of 5,000.
    expect(records.filter((r) => r.struck_to_county).length).toBeGreaterThan(50);
    for (const r of countyHeld) {
      expect(r.holder_name).toBe(countyHolderName(registry.county(r.county_slug)!.name));
      expect(r.interest_rate).toBe(18);
    }
    for (const r of records.filter((x) => x.status === 'lands_available')) expect(r.struck_to_county).toBe(true);
  });

  it('schedule advertised certificates after today and sell the rest at tax year + 1, by today', () => {
    for (const r of records) {
      if (r.status === 'advertised') expect(r.sale_date > TODAY).toBe(true);
      else {
        expect(r.sale_date.slice(0, 4)).toBe(String(r.tax_year + 1));
        expect(r.sale_date <= TODAY).toBe(true);
      }
      expect(r.tax_year).toBeGreaterThanOrEqual(2015);
      expect(r.tax_year).toBeLessThanOrEqual(2025);
    }
    for (const r of records.filter((x) => x.status === 'advertised')) expect(r.tax_year).toBe(2025);
  });

  it('charge a face above the delinquent tax, mostly $300-$3,000 with a long tail', () => {
    for (const r of records) expect(r.face_amount).toBeGreaterThan(r.delinquent_amount);
    const faces = records.map((r) => r.face_amount);
    expect(faces.filter((f) => f >= 300 && f <= 3000).length / faces.length).toBeGreaterThan(0.55);
    expect(Math.max(...faces)).toBeGreaterThan(30_000);
  });

  it('give one id per name, shared only by spellings that differ in case and punctuation', () => {
    const idOf = new Map<string, string>();
    const nameOf = new Map<string, string>();
    for (const r of records) {
      expect(idOf.get(r.holder_name) ?? r.holder_id).toBe(r.holder_id);
      // Files spell fund entities differently ("Fl Tax Lien Fund 3, L.L.C."); the id is of the normalized name.
      expect(normalizeHolderName(nameOf.get(r.holder_id) ?? r.holder_name)).toBe(normalizeHolderName(r.holder_name));
      idOf.set(r.holder_name, r.holder_id);
      nameOf.set(r.holder_id, r.holder_name);
    }
    expect(idOf.size).toBeGreaterThan(100);
    expect(idOf.size).toBeGreaterThan(nameOf.size);
  });

  it('look like Florida: owners, addresses with county cities and ZIPs, plat legal descriptions', () => {
    const owners = records.map((r) => r.owner_name);
    expect(owners.some((o) => / & /.test(o))).toBe(true);
    expect(owners.some((o) => /TRUST|REV TR$/.test(o))).toBe(true);
    expect(owners.some((o) => / (LLC|INC|CORP)$/.test(o))).toBe(true);
    expect(owners.some((o) => /^EST OF | EST$/.test(o))).toBe(true);
    const zipPrefix: Record<string, RegExp> = {
      'miami-dade':
        /, (MIAMI|HIALEAH|HOMESTEAD|MIAMI GARDENS|NORTH MIAMI|MIAMI BEACH|CORAL GABLES|DORAL|OPA-LOCKA|FLORIDA CITY|CUTLER BAY), FL 33\d{3}$/,
      broward: /, [A-Z ]+, FL 33\d{3}$/,
      hillsborough: /, [A-Z ]+, FL 33\d{3}$/,
      orange: /, [A-Z ]+, FL (32|34)\d{3}$/,
      pinellas: /, [A-Z ]+, FL (33|34)\d{3}$/,
      duval: /, [A-Z ]+, FL 322\d{2}$/,
    };
    for (const r of records) expect(r.site_address_full).toMatch(zipPrefix[r.county_slug]!);
    expect(records.some((r) => / (NW|SW|NE|SE) \d+(ST|ND|RD|TH) (ST|AVE|CT|TER|PL|RD|DR|LN),/.test(r.site_address_full))).toBe(true);
    const legal = records.map((r) => r.legal_description).filter((l): l is string => l !== null);
    expect(legal.some((l) => /LOT \d+ BLK \d+ .* PB \d+-\d+/.test(l))).toBe(true);
    expect(legal.some((l) => l.includes(','))).toBe(true);
    expect(legal.some((l) => l.includes('\n'))).toBe(true);
  });

  it('write parcel ids in each county format', () => {
    const formats: Record<string, RegExp> = {
      'miami-dade': /^\d{2}-\d{4}-\d{3}-\d{4}$/,
      broward: /^\d{4} \d{2} \d{2} \d{4}$/,
      hillsborough: /^[A-Z]-\d{2}-\d{2}-\d{2}-\d[A-Z]\d-\d{6}-\d{5}\.0$/,
      orange: /^\d{2}-\d{2}-\d{2}-\d{4}-\d{2}-\d{3}$/,
      pinellas: /^\d{2}-\d{2}-\d{2}-\d{5}-\d{3}-\d{4}$/,
      duval: /^\d{6}-\d{4}$/,
      franklin: /^\d{2}-\d{2}S-\d{2}W-\d{4}-\d{4}-\d{4}$/,
      gulf: /^\d{5}-\d{5}R$/,
    };
    for (const r of records) expect(r.parcel_id).toMatch(formats[r.county_slug]!);
    expect(new Set(records.map((r) => r.county_slug))).toEqual(new Set(Object.keys(formats)));
  });

  it('keep a parcel the same across tax years (owner, address, legal description)', () => {
    const byParcel = new Map<string, CertificateRecord>();
    let repeats = 0;
    for (const r of records) {
      const key = `${r.county_slug}|${r.parcel_id}`;
      const seen = byParcel.get(key);
      if (seen) {
        repeats++;
        expect(seen.tax_year).not.toBe(r.tax_year);
        expect([r.owner_name, r.site_address_full, r.legal_description]).toEqual([
          seen.owner_name,
          seen.site_address_full,
          seen.legal_description,
        ]);
      } else byParcel.set(key, r);
    }
    expect(repeats).toBeGreaterThan(100);
  });
});

describe('today moves the market', () => {
  it('before the latest sale, the whole latest tax year is advertised at its scheduled dates', () => {
    const state = make(2000, 5, '2026-05-12');
    const latest = [...state.allRecords()].filter((r) => r.tax_year === 2025);
    expect(latest.length).toBeGreaterThan(0);
    for (const r of latest) {
      expect(r.status).toBe('advertised');
      expect(r.sale_date >= '2026-05-18' && r.sale_date <= '2026-06-01').toBe(true);
    }
  });

  it('before the latest list is advertised, the latest tax year has no certificates yet', () => {
    const state = make(2000, 5, '2026-03-01');
    expect(state.files.filter((f) => f.taxYear === 2025)).toEqual([]);
    expect(state.files.reduce((a, f) => a + f.rows, 0)).toBe(2000);
    expect([...state.allRecords()].filter((r) => r.status === 'advertised')).toEqual([]);
  });
});
