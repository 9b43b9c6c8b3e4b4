import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkSortRules, PageRuleError, type PageRule, sortKinds } from '../../../../../services/engine/paging/rules.ts';
import { effectiveSort, type SortKey } from '../../../../../services/engine/paging/sort.ts';
import { buildSalesQuery } from '../../../../../services/api/routes/certificate-sales/build-query.ts';
import { SALE_SORTS, SalesSearchParams } from '../../../../../services/api/routes/certificate-sales/params.ts';
import { buildByParcel } from '../../../../../services/api/routes/certificates/build-by-parcel.ts';
import { buildCertificateSearch } from '../../../../../services/api/routes/certificates/build-search.ts';
import { ByParcelParams, CERTIFICATE_SORTS, CertificateSearchParams } from '../../../../../services/api/routes/certificates/params.ts';
import { buildHoldersQuery } from '../../../../../services/api/routes/holders/build-query.ts';
import { HOLDER_SORTS, HoldersSearchParams } from '../../../../../services/api/routes/holders/params.ts';
import { buildLandsQuery } from '../../../../../services/api/routes/lands-available/build-query.ts';
import { LANDS_SORTS, LandsSearchParams } from '../../../../../services/api/routes/lands-available/params.ts';

const id: SortKey = { field: 'id', order: 'asc' };
const score: SortKey = { score: true, order: 'desc' };

/** The rule a call breaks, or null when it keeps every rule. */
function broken(run: () => unknown): PageRule | null {
  try {
    run();
    return null;
  } catch (err) {
    if (err instanceof PageRuleError) return err.rule;
    throw err;
  }
}

describe('checkSortRules (every page read, before any engine call)', () => {
  it('keeps field orders and relevance orders that end in the id', () => {
    expect(broken(() => checkSortRules([{ field: 'sale_date', order: 'desc' }, id]))).toBeNull();
    expect(broken(() => checkSortRules([score, { field: 'sale_date', order: 'desc' }, id]))).toBeNull();
    expect(broken(() => checkSortRules([{ field: 'id', order: 'desc' }]))).toBeNull();
  });
  it('refuses an order that does not end in the id', () => {
    expect(broken(() => checkSortRules([]))).toBe('ends-in-id');
    expect(broken(() => checkSortRules([{ field: 'sale_date', order: 'desc' }]))).toBe('ends-in-id');
    expect(broken(() => checkSortRules([id, score]))).toBe('ends-in-id');
    expect(broken(() => checkSortRules([id, { field: 'sale_date', order: 'desc' }]))).toBe('ends-in-id');
  });
  it('refuses a score key anywhere but first', () => {
    expect(broken(() => checkSortRules([{ field: 'sale_date', order: 'desc' }, score, id]))).toBe('score-first');
  });
  it('names the rule and the order in its message', () => {
    expect(() => checkSortRules([{ field: 'sale_date', order: 'desc' }])).toThrow(/page rule ends-in-id: .*sale_date desc/);
  });
});

describe('sortKinds (every deep page read, from the mapped types)', () => {
  const types = { id: 'keyword', sale_date: 'date', tax_year: 'integer', 'face_amount.sort': 'double', name: 'keyword' };
  it('cuts keywords as strings, dates, whole numbers and doubles', () => {
    const sort: SortKey[] = [
      score,
      { field: 'tax_year', order: 'desc' },
      { field: 'sale_date', order: 'desc' },
      { field: 'face_amount.sort', order: 'asc' },
      id,
    ];
    expect(sortKinds(sort, types)).toEqual(['integer', 'date', 'decimal', 'string']);
  });
  it('refuses money that does not sort on a double', () => {
    for (const type of ['scaled_float', 'float', 'half_float'])
      expect(broken(() => sortKinds([{ field: 'face_amount', order: 'desc' }, id], { ...types, face_amount: type }))).toBe(
        'money-on-double',
      );
  });
  it('refuses a field that cannot be cut: text, boolean, unmapped, or mapped two ways behind the alias', () => {
    for (const type of ['text', 'boolean', undefined, 'keyword,text'])
      expect(broken(() => sortKinds([{ field: 'owner', order: 'asc' }, id], { ...types, owner: type }))).toBe('sortable-type');
  });
  it('refuses a descending string after the score, and allows it in a field order', () => {
    const desc: SortKey = { field: 'name', order: 'desc' };
    expect(broken(() => sortKinds([score, desc, id], types))).toBe('string-after-score-ascending');
    expect(sortKinds([desc, id], types)).toEqual(['string', 'string']);
  });
});

/** Each mapped field's type, sub-fields as parent.sub, from a mapping file: what field_caps reports. */
function mappedTypes(file: string): Record<string, string> {
  const mapping = JSON.parse(readFileSync(new URL(`../../../../../mappings/${file}.json`, import.meta.url), 'utf8'));
  const out: Record<string, string> = {};
  const walk = (
    props: Record<string, { type?: string; fields?: Record<string, { type: string }>; properties?: Record<string, unknown> }>,
    prefix: string,
  ) => {
    for (const [name, spec] of Object.entries(props)) {
      if (spec.type) out[`${prefix}${name}`] = spec.type;
      for (const [sub, s] of Object.entries(spec.fields ?? {})) out[`${prefix}${name}.${sub}`] = s.type;
      if (spec.properties) walk(spec.properties as never, `${prefix}${name}.`);
    }
  };
  walk(mapping.mappings.properties, '');
  return out;
}

/**
 * Every order every list can ask for, held to the rules against its index's mapping
 * file: a shallow page never reads field types, so a builder or mapping change that
 * breaks a type rule fails here, not on the first deep page in production.
 */
describe('every list order keeps the rules against its mapping', () => {
  const lists: { name: string; mapping: string; sorts: SortKey[][] }[] = [
    {
      name: 'certificates/search',
      mapping: 'certificates',
      // distance_asc measures from near (its page reads the plan's distanceSort; its sort keys are the id alone).
      sorts: CERTIFICATE_SORTS.map(
        (sort) =>
          buildCertificateSearch(
            CertificateSearchParams.parse({ sort, query: 'smith', ...(sort === 'distance_asc' ? { near: '26,-80', radius: '1km' } : {}) }),
          ).sort,
      ),
    },
    {
      name: 'certificates/by-parcel',
      mapping: 'certificates',
      sorts: [buildByParcel(ByParcelParams.parse({ county: 'miami-dade', parcel_id: '01-2345' })).sort],
    },
    {
      name: 'certificate-sales/search',
      mapping: 'sales',
      sorts: SALE_SORTS.map((sort) => buildSalesQuery(SalesSearchParams.parse({ sort })).sort),
    },
    {
      name: 'holders/search',
      mapping: 'holders',
      sorts: HOLDER_SORTS.map((sort) => buildHoldersQuery(HoldersSearchParams.parse({ sort })).sort),
    },
    {
      name: 'lands-available/search',
      mapping: 'lands-available',
      sorts: LANDS_SORTS.map((sort) => buildLandsQuery(LandsSearchParams.parse({ sort })).sort),
    },
  ];
  for (const list of lists) {
    it(list.name, () => {
      const types = mappedTypes(list.mapping);
      expect(list.sorts.length).toBeGreaterThan(0);
      for (const sort of list.sorts) {
        expect(broken(() => checkSortRules(sort))).toBeNull();
        // Both the order as built (relevance with a scoring query) and as paged without one.
        expect(broken(() => sortKinds(sort, types))).toBeNull();
        expect(broken(() => sortKinds(effectiveSort(sort, { match_all: {} }), types))).toBeNull();
      }
    });
  }
});
