import type { FacetBucket, ListResult } from '../api/envelope.ts';
import { CERTIFICATE_FACETS, CERTIFICATE_SORTS, type CertificateSort } from '../api/routes/certificates/params.ts';
import type { ExpandedCertificateRow } from '../api/routes/certificates/row-view.ts';
import type { Registry } from '../domain/registry.ts';
import { CHART_SCOPES, type ExploreCharts, type ExploreParams, type ScopeRanges } from './explore-read.ts';
import { count, day } from './format.ts';
import { queryStringOf } from './saved-search-text.ts';

/**
 * The explorer's view model (pure): the search's answer, the ranges and the charts worded for
 * the template, and every link as the page's own query string, the API's parameter names, so a
 * link is also the query string of /api/v1/certificates/search.
 */

export const EXPLORE_PATH = '/account/explore';

/** The answer parameters the page sets itself or leaves at the API's default: never in a link. */
const NOT_IN_LINKS = new Set(['facets', 'format', 'expand']);

/** The params as a query string; limit and offset only when not the default. */
export function exploreQuery(params: Partial<ExploreParams>): string {
  const kept = Object.fromEntries(
    Object.entries(params).filter(
      ([name, value]) =>
        value !== undefined && !NOT_IN_LINKS.has(name) && !(name === 'offset' && value === 0) && !(name === 'limit' && value === 25),
    ),
  );
  return queryStringOf(kept);
}

const href = (params: Partial<ExploreParams>) => {
  const q = exploreQuery(params);
  return q === '' ? EXPLORE_PATH : `${EXPLORE_PATH}?${q}`;
};

/** The search's filters alone (what a saved search keeps): no order, page or facets. */
export function filtersOf(params: ExploreParams): Partial<ExploreParams> {
  const { sort: _s, limit: _l, offset: _o, facets: _f, format: _fm, expand: _e, ...filters } = params;
  return filters;
}

export const SORT_WORDS: Record<CertificateSort, string> = {
  relevance: 'Best text match',
  face_desc: 'Face amount, largest first',
  face_asc: 'Face amount, smallest first',
  year_newest: 'Tax year, newest first',
  sale_date_desc: 'Sale date, newest first',
  sale_newest: 'Sale date, newest first (same as above)',
  rate_asc: 'Bid rate, lowest first',
  rate_desc: 'Bid rate, highest first',
  distance_asc: 'Nearest first (needs near and radius)',
};

const FACET_WORDS: Record<(typeof CERTIFICATE_FACETS)[number], string> = {
  county: 'County',
  status: 'Status',
  tax_year: 'Tax year',
  vendor: 'Vendor',
  redeemed: 'Redeemed',
  holder_group: 'Holder group',
};

type ListParam = 'county' | 'status' | 'tax_year' | 'vendor' | 'holder_group';

/** A holder group's name as its facet bucket gives it (the value itself is an id). */
function groupName(facets: Record<string, FacetBucket[]>, id: unknown): string {
  return facets.holder_group?.find((b) => b.value === id)?.label ?? String(id);
}

function valueLabel(facet: string, value: FacetBucket['value'], registry: Pick<Registry, 'county'>): string {
  if (facet === 'county') return registry.county(String(value))?.name ?? String(value);
  if (facet === 'status') return String(value).replaceAll('_', ' ');
  if (facet === 'redeemed') return value === true ? 'Redeemed' : 'Not redeemed';
  return String(value);
}

/** Each facet's values with their counts; a value links to the search with it added (or, when chosen, removed). */
function facetLists(params: ExploreParams, facets: Record<string, FacetBucket[]>, registry: Pick<Registry, 'county'>) {
  const base = { ...params, offset: 0 };
  return CERTIFICATE_FACETS.map((facet) => ({
    name: facet,
    label: FACET_WORDS[facet],
    values: (facets[facet] ?? []).map((b) => {
      let selected: boolean;
      let next: Partial<ExploreParams>;
      if (facet === 'redeemed') {
        selected = params.redeemed === b.value;
        next = { ...base, redeemed: selected ? undefined : (b.value as boolean) };
      } else {
        const current = (params[facet as ListParam] ?? []) as (string | number)[];
        selected = current.some((v) => String(v) === String(b.value));
        const values = selected ? current.filter((v) => String(v) !== String(b.value)) : [...current, b.value as string | number];
        next = { ...base, [facet]: values.length === 0 ? undefined : values };
      }
      const label = facet === 'holder_group' ? (b.label ?? String(b.value)) : valueLabel(facet, b.value, registry);
      return { label, count: count(b.count), n: b.count, selected, href: href(next) };
    }),
  }));
}

const money = (n: number) => `${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;
const percent = (n: number) => `${n.toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;

/** One chip per active filter value, each linking to the search without it. */
function chips(params: ExploreParams, registry: Pick<Registry, 'county'>, facets: Record<string, FacetBucket[]>) {
  const base = { ...params, offset: 0 };
  const out: { label: string; href: string }[] = [];
  for (const [name, value] of Object.entries(filtersOf(params))) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      for (const v of value) {
        const rest = (value as unknown[]).filter((x) => x !== v);
        out.push({
          label: `${FACET_WORDS[name as ListParam] ?? name}: ${name === 'holder_group' ? groupName(facets, v) : valueLabel(name, v as string, registry)}`,
          href: href({ ...base, [name]: rest.length === 0 ? undefined : rest }),
        });
      }
      continue;
    }
    out.push({ label: chipLabel(name, value), href: href({ ...base, [name]: undefined }) });
  }
  return out;
}

function chipLabel(name: string, value: unknown): string {
  switch (name) {
    case 'query':
      return `Text: “${String(value)}”`;
    case 'face_min':
      return `Face at least ${money(Number(value))}`;
    case 'face_max':
      return `Face at most ${money(Number(value))}`;
    case 'rate_min':
      return `Bid rate at least ${percent(Number(value))}`;
    case 'rate_max':
      return `Bid rate at most ${percent(Number(value))}`;
    case 'sale_after':
      return `Sold on or after ${day(String(value))}`;
    case 'sale_before':
      return `Sold on or before ${day(String(value))}`;
    case 'redeemed':
      return value === true ? 'Redeemed only' : 'Not redeemed';
    default:
      return `${name}: ${String(value)}`;
  }
}

/** Links to the first, previous, nearby, next and last pages: any page of the result is one or two clicks away. */
function pages(params: ExploreParams, total: number) {
  const limit = params.limit;
  const current = Math.floor(params.offset / limit);
  const last = Math.max(0, Math.ceil(total / limit) - 1);
  const at = (n: number) => ({ number: n + 1, href: href({ ...params, offset: n * limit }), current: n === current });
  const numbers = new Set([0, current - 2, current - 1, current, current + 1, current + 2, last].filter((n) => n >= 0 && n <= last));
  return {
    current: current + 1,
    last: last + 1,
    first: { from: total === 0 ? 0 : params.offset + 1, to: Math.min(total, params.offset + limit) },
    previous: current > 0 ? at(current - 1).href : null,
    next: current < last ? at(current + 1).href : null,
    links: [...numbers].sort((a, b) => a - b).map(at),
  };
}

function rowView(r: ExpandedCertificateRow) {
  return {
    id: r.id,
    href: `${EXPLORE_PATH}/certificates/${r.id}`,
    number: r.certificate_number,
    county: r.county_name,
    taxYear: r.tax_year,
    status: r.status.replaceAll('_', ' '),
    face: money(r.face_amount),
    rate: percent(r.interest_rate),
    sale: r.sale_date,
    holder: r.holder_name,
  };
}

function chartsView(charts: ExploreCharts | null, params: ExploreParams) {
  if (charts === null) return null;
  const left = (scope: string[]) =>
    Object.keys(filtersOf(params))
      .filter((n) => !scope.includes(n))
      .sort();
  const err = (c: { error?: { message: string } }) => (c.error ? c.error.message : null);
  return {
    bidRates: {
      error: err(charts.bidRates),
      leftOut: left(CHART_SCOPES.bidRates),
      certificates: charts.bidRates.data ? count(charts.bidRates.data.certificates) : '0',
      median: charts.bidRates.data?.rate.median ?? null,
      rows: (charts.bidRates.data?.histogram ?? []).map((b) => ({
        rate: b.rate,
        rateText: percent(b.rate),
        certificates: b.certificates,
        certificatesText: count(b.certificates),
        face: money(b.face_amount),
      })),
    },
    curve: {
      error: err(charts.curve),
      leftOut: left(CHART_SCOPES.redemption),
      certificates: charts.curve.data ? count(charts.curve.data.certificates) : '0',
      median: charts.curve.data?.median_months ?? null,
      shares: (charts.curve.data?.redeemed_share_by ?? []).map((s) => ({
        months: s.months,
        share: s.share === null ? 'none' : percent(s.share * 100),
      })),
      rows: (charts.curve.data?.curve ?? []).map((m) => ({
        months: m.months,
        survival: m.survival,
        redeemedShare: m.survival === null ? null : Math.round((1 - m.survival) * 1_000_000) / 10_000,
        atRisk: count(m.at_risk),
        redeemed: count(m.redeemed),
      })),
    },
    yields: {
      error: err(charts.yields),
      leftOut: left(CHART_SCOPES.redemption),
      rows: (charts.yields.data?.rates ?? []).map((r) => ({
        rate: r.rate,
        rateText: percent(r.rate),
        yield: r.expected_yield,
        yieldText: r.expected_yield === null ? 'none' : percent(r.expected_yield),
        wonAbove: r.won_above === null ? 'none' : percent(r.won_above * 100),
      })),
    },
  };
}

function rangesView(params: ExploreParams, ranges: ScopeRanges) {
  return {
    face: { min: params.face_min ?? '', max: params.face_max ?? '', scope: ranges.face && { min: ranges.face.min, max: ranges.face.max } },
    rate: { min: params.rate_min ?? '', max: params.rate_max ?? '', scope: ranges.rate && { min: ranges.rate.min, max: ranges.rate.max } },
    sale: { min: params.sale_after ?? '', max: params.sale_before ?? '', scope: ranges.sale },
  };
}

/** Scalars and lists of the search as the GET form's fields carry them (lists comma-separated, as the API reads them). */
function formValues(params: ExploreParams) {
  const list = (v: unknown[] | undefined) => (v === undefined ? '' : v.join(','));
  return {
    query: params.query ?? '',
    county: list(params.county),
    status: list(params.status),
    tax_year: list(params.tax_year),
    vendor: list(params.vendor),
    sort: params.sort ?? '',
    limit: params.limit,
  };
}

export interface ExploreInput {
  params: ExploreParams;
  result: ListResult<ExpandedCertificateRow>;
  ranges: ScopeRanges;
  charts: ExploreCharts | null;
  charged: number;
  registry: Pick<Registry, 'county'>;
  csvAllowed: boolean;
}

export function exploreModel(input: ExploreInput) {
  const { params, result, registry } = input;
  const filters = filtersOf(params);
  const apiQuery = exploreQuery({ ...params, facets: undefined });
  const counties = params.county ?? [];
  return {
    title: 'Explore certificates',
    total: result.total,
    totalText: count(result.total),
    form: formValues(params),
    sorts: CERTIFICATE_SORTS.map((s) => ({ value: s, label: SORT_WORDS[s], selected: params.sort === s })),
    facets: facetLists(params, result.facets ?? {}, registry),
    chips: chips(params, registry, result.facets ?? {}),
    clearHref: EXPLORE_PATH,
    ranges: rangesView(params, input.ranges),
    rows: result.rows.map(rowView),
    pages: pages(params, result.total),
    charts: chartsView(input.charts, params),
    cost: {
      charged: input.charged,
      text: `This view cost ${input.charged} ${input.charged === 1 ? 'credit' : 'credits'}`,
    },
    save: { search: exploreQuery(filters) },
    csv: { href: `/api/v1/certificates/search?${apiQuery === '' ? '' : `${apiQuery}&`}format=csv`, allowed: input.csvAllowed },
    bulk:
      counties.length === 0
        ? [{ label: 'Every county', href: '/api/v1/bulk/files?dataset=certificates' }]
        : counties.map((c) => ({
            label: registry.county(c)?.name ?? c,
            href: `/api/v1/bulk/files?dataset=certificates&county=${encodeURIComponent(c)}`,
          })),
  };
}
