/**
 * Example answers for the OpenAPI document. Those about certificates, sales, counties, sources,
 * quotes, bid rates and usage are real answers of the real routes over the demo data set
 * (fixtures/demo), recorded into examples.json by `npm run openapi:examples`
 * (scripts/write-openapi-examples.ts); test/unit/services/api/openapi/examples.test.ts checks their
 * certificates against the demo files. Holders and lands available come from
 * fixtures/files/holders and lands-available (the demo set has none). Spectral's
 * oas3-valid-media-example checks each one against its (closed) schema in
 * test/integration/services/api/openapi/openapi-lint.test.ts, so an example cannot drift from the shape it shows.
 */

import recorded from './examples.json' with { type: 'json' };

const meta = (request_id: string) => ({ request_id, dataset_status: 'live' as const });

const certificateRows = recorded.certificateList.data;

const gulfCoast = {
  id: 'hld_c4ac2deca041a2813bf3',
  name: 'Gulf Coast Lien Fund II, LLC',
  normalized_name: 'gulf coast lien fund ii llc',
  certificate_count: 42,
  outstanding_face_amount: 61234.56,
  counties: ['alachua', 'miami-dade'],
  first_seen_tax_year: 2019,
  last_seen_tax_year: 2024,
};
const obrien = {
  id: 'hld_7fd6f7199b20b1b7537f',
  name: 'O\'Brien Capital "Tax" Partners',
  normalized_name: 'o brien capital tax partners',
  certificate_count: 0,
  outstanding_face_amount: 0,
  counties: ['alachua', 'duval'],
  first_seen_tax_year: 2018,
  last_seen_tax_year: 2021,
};
const sales = recorded.certificateSaleList.data;

const landsRows = [
  {
    id: 'cert_b03286c825e2a7927a32',
    certificate_number: '2020-000077',
    county_slug: 'alachua',
    county_name: 'Alachua',
    parcel_id: '17-10-20-0000-0001-0010',
    tax_year: 2020,
    status: 'lands_available',
    face_amount: 512,
    opening_bid: 0,
    tax_deed_application_date: '2023-04-10',
    available_since: '2023-04-10',
    owner_name: 'OAK GROVE HOLDINGS INC',
    site_address_full: '77 SE 2ND ST, HIGH SPRINGS, FL 32643',
    parcel_url: 'https://parcels.taxcert.dev/api/v1/parcels/alachua/17-10-20-0000-0001-0010',
  },
  {
    id: 'cert_7311c95c0ae2780443f1',
    certificate_number: '2019-001234',
    county_slug: 'alachua',
    county_name: 'Alachua',
    parcel_id: '01234-005-000',
    tax_year: 2019,
    status: 'lands_available',
    face_amount: 1234.56,
    opening_bid: 3456.78,
    tax_deed_application_date: '2022-06-15',
    available_since: '2022-09-01',
    owner_name: 'SMITH, JOHN & MARY',
    site_address_full: '123 NW 5TH AVE, GAINESVILLE, FL 32601',
    parcel_url: 'https://parcels.taxcert.dev/api/v1/parcels/alachua/01234-005-000',
  },
];

/**
 * The change feed: a page as a poller sees it after a county's first load of a tax
 * year and two later moves, each object a real row of the demo answers above (the feed records
 * rows exactly as these routes render them); previous shows the values before each change.
 */
const demoRow = (id: string) =>
  [...certificateRows, recorded.certificate.data, ...recorded.certificatesByParcel.data].find((r) => r.id === id)!;
const demoSale = sales[0]!;
const eventList = {
  data: [
    {
      id: 'evt_48210',
      type: 'certificates.loaded',
      created_at: '2026-11-24T09:55:28.431Z',
      county_slug: demoSale.county_slug,
      data: {
        object: {
          county_slug: demoSale.county_slug,
          county_name: demoSale.county_name,
          tax_year: demoSale.tax_year,
          count: demoSale.certificates_offered,
        },
        previous: {},
      },
    },
    {
      id: 'evt_48211',
      type: 'county.coverage_changed',
      created_at: '2026-11-24T09:55:29.418Z',
      county_slug: recorded.county.data.countySlug,
      data: {
        object: recorded.county.data,
        previous: { coverageStatus: 'vendor_tracked', certificateCount: 0, lastImportAt: null, updatedAt: recorded.county.data.createdAt },
      },
    },
    {
      id: 'evt_48212',
      type: 'certificate_sale.created',
      created_at: '2026-11-24T09:55:29.502Z',
      county_slug: demoSale.county_slug,
      data: { object: demoSale, previous: {} },
    },
    {
      id: 'evt_48213',
      type: 'certificate.redeemed',
      created_at: '2026-12-01T06:10:02.117Z',
      county_slug: 'broward',
      data: {
        object: demoRow('cert_ef049abb6447222daf0d'),
        previous: { status: 'sold', redeemed: false, redeemed_date: null, redemption_amount: null },
      },
    },
    {
      id: 'evt_48214',
      type: 'certificate.tax_deed_applied',
      created_at: '2026-12-01T06:10:02.117Z',
      county_slug: 'broward',
      data: { object: demoRow('cert_e29da0f7f0215d0d6ba8'), previous: { status: 'sold', tax_deed_application_date: null } },
    },
  ],
  pagination: { limit: 5, offset: 0, total: 37, has_more: true, next_after: 'evt_48214' },
};

export const examples = {
  certificateFeatures: { ...recorded.certificateFeatures, meta: meta('req_Gq3Vb1nT0xW2zY8k') },
  certificateGeoGrid: { ...recorded.certificateGeoGrid, meta: meta('req_Hk2Lw7Pq9RtV3xYz') },
  certificateList: { ...recorded.certificateList, meta: meta('req_7QjW9pMj1gCGx3QC') },
  certificate: { ...recorded.certificate, meta: meta('req_4IyXt5Si4B_YP54a') },
  certificatesByParcel: { ...recorded.certificatesByParcel, meta: meta('req_F3ukDxErRAy4CFfI') },
  certificateCounts: { ...recorded.certificateCounts, meta: meta('req_EHHrjY9563ftL5LM') },
  certificateFields: {
    data: {
      fields: [
        {
          name: 'id',
          type: 'string',
          description: 'Platform surrogate key, form cert_<id>.',
        },
        {
          name: 'status',
          type: 'enum',
          description: 'Certificate status.',
          values: ['available', 'advertised', 'sold', 'redeemed', 'lands_available', 'tax_deed_applied', 'cancelled'],
        },
        {
          name: 'sale_date',
          type: 'date',
          description: 'Date sold at the county sale (YYYY-MM-DD).',
        },
      ],
    },
    meta: meta('req_9W0uZ0fREJaPd8qZ'),
  },
  certificateFreshness: { ...recorded.certificateFreshness, meta: meta('req_rTBb2pE3_MOcBwBz') },
  certificateSaleList: { ...recorded.certificateSaleList, meta: meta('req_i46MzEo-2HMrbjla') },
  holderList: {
    data: [gulfCoast, obrien],
    pagination: {
      limit: 2,
      offset: 0,
      total: 3,
      has_more: true,
    },
    meta: meta('req_Nr5sP67N_Ll80XWH'),
  },
  holder: { data: gulfCoast, meta: meta('req_LeEXYP0GDKXSN0CF') },
  landsAvailableList: {
    data: landsRows,
    pagination: {
      limit: 2,
      offset: 0,
      total: 2,
      has_more: false,
    },
    meta: meta('req_bD9a-fyp0gs47NFk'),
  },
  countyList: { ...recorded.countyList, meta: meta('req_x67uep7imm7oQb27') },
  county: { ...recorded.county, meta: meta('req_Ov13BNqSWrhF5p_x') },
  sourceList: { ...recorded.sourceList, meta: meta('req_WCeVhBfA27DvWWu_') },
  countySources: { ...recorded.countySources, meta: meta('req_HDSGaSbyWJGDmYD3') },
  usage: { ...recorded.usage, meta: meta('req_bPfZeE8sMS4wr-Lb') },
  // Quote, timeline and deed estimate: a sold certificate of the demo set whose parcel has other outstanding certificates.
  redemptionQuote: { ...recorded.redemptionQuote, meta: meta('req_Qz8bVtR2mLx0aP7c') },
  certificateTimeline: { ...recorded.certificateTimeline, meta: meta('req_Wk3nHs9dEe1uTq5b') },
  deedEstimate: { ...recorded.deedEstimate, meta: meta('req_Pd6yLc4rGv2oNs8x') },
  // Holder groups: the largest families of the demo market.
  holderGroupList: { ...recorded.holderGroupList, meta: meta('req_q7XvR2m9Hk0sLd3A') },
  // The change feed.
  eventList: { ...eventList, meta: meta('req_vE3nTf8Qa2LpXk9d') },
};

/** GET /analytics/bid-rates over the largest county's latest sale of the demo set. */
export const bidRateExample = { ...recorded.bidRates, meta: meta('req_ZZfLY6XXOjojzQim') };
export const redemptionCurveExample = { ...recorded.redemptionCurve, meta: meta('req_ZZfLY6XXOjojzQin') };
export const expectedYieldExample = { ...recorded.expectedYield, meta: meta('req_ZZfLY6XXOjojzQio') };

/** Webhook endpoints and deliveries: hand-written, in the shapes map-row.ts renders. */
const growthEndpoint = {
  id: 'whe_Yk2mQ8vLr0TnBw4x',
  url: 'https://hooks.example.com/taxcert',
  types: ['certificate.redeemed', 'certificate.tax_deed_applied', 'saved_search.match_added'],
  counties: ['broward', 'lee', 'miami-dade'],
  // The Lee saved search below: its new matches, and no other search's.
  saved_searches: ['ss_q7Lm2VxN4cRt8KpW0aZy'],
  status: 'enabled' as const,
  disabled_reason: null,
  disabled_at: null,
  secret_rotated_at: '2026-03-02T09:15:00.000Z',
  created_at: '2026-02-11T16:40:12.512Z',
};
export const webhookExamples = {
  endpointList: {
    data: [
      growthEndpoint,
      {
        ...growthEndpoint,
        id: 'whe_3pQzH7sNc1aVd9Ke',
        url: 'https://old.example.com/hook',
        types: null,
        counties: null,
        saved_searches: null,
        status: 'disabled' as const,
        disabled_reason: 'gone' as const,
        disabled_at: '2026-03-04T02:00:31.007Z',
        secret_rotated_at: null,
      },
    ],
    pagination: { limit: 100, offset: 0, total: 2, has_more: false },
    meta: meta('req_Hq1vG5wYt8Lr2NcZ'),
  },
  deliveryList: {
    data: [
      {
        id: 'whd_90412',
        endpoint_id: growthEndpoint.id,
        event_id: 'evt_57311',
        event_type: 'certificate.redeemed',
        status: 'delivered' as const,
        attempts: 2,
        next_attempt_at: null,
        last_error: null,
        created_at: '2026-03-05T14:02:11.418Z',
        updated_at: '2026-03-05T14:02:16.934Z',
        attempt_log: [
          {
            attempt: 1,
            replay: 0,
            started_at: '2026-03-05T14:02:11.601Z',
            duration_ms: 48,
            http_status: 503,
            error: null,
            response_body: '{"error":"maintenance"}',
          },
          {
            attempt: 2,
            replay: 0,
            started_at: '2026-03-05T14:02:16.902Z',
            duration_ms: 32,
            http_status: 200,
            error: null,
            response_body: 'ok',
          },
        ],
      },
    ],
    pagination: { limit: 25, offset: 0, total: 1, has_more: false },
    meta: meta('req_B4tKx0sWm7Jd1PqE'),
  },
};

/** The webhook endpoint writes (services/api/writes): a creation, a change, a deletion. */
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
export const webhookWriteExamples = {
  createBody: {
    url: 'https://hooks.example.com/taxcert',
    types: ['certificate.redeemed', 'certificate.tax_deed_applied', 'saved_search.match_added'],
    counties: ['broward', 'lee', 'miami-dade'],
    saved_searches: ['ss_q7Lm2VxN4cRt8KpW0aZy'],
  },
  created: { data: { ...growthEndpoint, secret_rotated_at: null, secret }, meta: meta('req_Cn4wX8pLq2Rt6YsA') },
  endpoint: { data: growthEndpoint, meta: meta('req_Rd5tY7uIo9PaSd1F') },
  updateBody: { counties: null, status: 'disabled' },
  updated: {
    data: {
      ...growthEndpoint,
      counties: null,
      status: 'disabled' as const,
      disabled_reason: 'operator' as const,
      disabled_at: '2026-03-06T10:11:12.131Z',
    },
    meta: meta('req_Up2dA7tEg3HjKl4Z'),
  },
  rotated: { data: { ...growthEndpoint, secret_rotated_at: '2026-03-06T10:20:00.000Z', secret }, meta: meta('req_Ro8tA5tEs1EcRe7T') },
  deleted: { data: { id: growthEndpoint.id, deleted: true as const }, meta: meta('req_De1eT3dWh9Ep2Qx0') },
};

/** Saved searches (services/api/routes/saved-searches): hand-written, in the shape read.ts renders. */
const leeSearch = {
  id: 'ss_q7Lm2VxN4cRt8KpW0aZy',
  name: 'Lee, face over $2,000, still outstanding',
  params: { county: ['lee'], status: ['sold'], face_min: 2000 },
  created_at: '2026-03-01T12:00:00.000Z',
  updated_at: '2026-03-01T12:00:00.000Z',
};
export const savedSearchExamples = {
  createBody: { name: leeSearch.name, params: { county: 'lee', status: 'sold', face_min: 2000 } },
  created: { data: leeSearch, meta: meta('req_Sv1cR3aTe5dQw7Ex') },
  list: { data: [leeSearch], pagination: { limit: 100, offset: 0, total: 1, has_more: false }, meta: meta('req_Sl2sT4lI6sTq8Wz1') },
  one: { data: leeSearch, meta: meta('req_Sg3eT5oN7eRy9Xa2') },
  updateBody: { name: 'Lee and Collier, face over $2,000', params: { county: ['lee', 'collier'], status: ['sold'], face_min: 2000 } },
  updated: {
    data: {
      ...leeSearch,
      name: 'Lee and Collier, face over $2,000',
      params: { county: ['lee', 'collier'], status: ['sold'], face_min: 2000 },
      updated_at: '2026-03-02T08:30:00.000Z',
    },
    meta: meta('req_Su4pD6aT8eSz0Yb3'),
  },
  deleted: { data: { id: leeSearch.id, deleted: true as const }, meta: meta('req_Sd5eL7eT9eDa1Zc4') },
};

/** Portfolios (services/api/routes/portfolios): hand-written, in the shape read.ts renders. */
const leeBook = {
  id: 'pf_R4nT8wQz2LmX6cVb',
  name: 'Lee County 2023 book',
  follow_holder_group: null,
  created_at: '2026-03-01T12:00:00.000Z',
  updated_at: '2026-03-01T12:00:00.000Z',
};
const leePosition = {
  id: 'pos_M2xK7pQw9ZaT4nVe',
  portfolio_id: leeBook.id,
  certificate_id: 'cert_5b0e8d7c2a914f6e3d1a',
  county: 'lee',
  certificate_number: '2023-004512',
  tax_year: 2023,
  acquired_on: '2024-06-01',
  acquired_amount: 1850.4,
  note: null,
  created_at: '2026-03-01T12:05:00.000Z',
  resolved: true,
};
export const portfolioExamples = {
  createBody: { name: leeBook.name },
  created: { data: leeBook, meta: meta('req_Pc1rE4tF7oLi0Ab2') },
  list: { data: [leeBook], pagination: { limit: 100, offset: 0, total: 1, has_more: false }, meta: meta('req_Pl2sT5pF8oLi1Bc3') },
  one: { data: leeBook, meta: meta('req_Pg3eT6pF9oLi2Cd4') },
  updateBody: { name: 'Lee 2023, following Gulf Coast', follow_holder_group: 'grp_6f1c2a9e0b3d4c5e7a8b' },
  updated: {
    data: {
      ...leeBook,
      name: 'Lee 2023, following Gulf Coast',
      follow_holder_group: 'grp_6f1c2a9e0b3d4c5e7a8b',
      updated_at: '2026-03-02T08:30:00.000Z',
    },
    meta: meta('req_Pu4pD7aF0oLi3De5'),
  },
  deleted: { data: { id: leeBook.id, deleted: true as const }, meta: meta('req_Pd5eL8eF1oLi4Ef6') },
  calendarAddress: {
    data: {
      portfolio_id: leeBook.id,
      url: 'https://api.taxcert.dev/calendar/cal_3q2x7YpV0cM8nJ4kT1wR6bZ9sH5dL2fG8aE0uQ7yX4o.ics',
      token: 'cal_3q2x7YpV0cM8nJ4kT1wR6bZ9sH5dL2fG8aE0uQ7yX4o',
      created_at: '2026-03-01T12:10:00.000Z',
    },
    meta: meta('req_Pk6cA9lF2oLi5Fg7'),
  },
  calendarRevoked: { data: { id: leeBook.id, deleted: true as const }, meta: meta('req_Pr7cA0lF3oLi6Gh8') },
  positionsBody: {
    positions: [
      { county: 'lee', certificate_number: '2023-004512', tax_year: 2023, acquired_on: '2024-06-01', acquired_amount: 1850.4 },
      { county: 'lee', certificate_number: '2023-009001', tax_year: 2023 },
      { county: 'atlantis', certificate_number: '17', tax_year: 2023 },
      { county: 'lee', certificate_number: '2023004512', tax_year: 2023 },
    ],
  },
  positionsAdded: {
    data: {
      portfolio_id: leeBook.id,
      created: 2,
      unresolved: 1,
      rejected: 2,
      lines: [
        { line: 1, status: 'created' as const, position: leePosition },
        {
          line: 2,
          status: 'created' as const,
          position: {
            ...leePosition,
            id: 'pos_N3yL8qRx0AbU5oWf',
            certificate_id: 'cert_9a3f0c1d7e2b4a6c8d0e',
            certificate_number: '2023-009001',
            acquired_on: null,
            acquired_amount: null,
            resolved: false,
          },
        },
        {
          line: 3,
          status: 'rejected' as const,
          error: {
            code: 'unknown_county' as const,
            field: 'county',
            message: 'unknown county slug "atlantis"; GET /api/v1/counties lists the 67 county slugs',
          },
        },
        {
          line: 4,
          status: 'rejected' as const,
          error: { code: 'duplicate' as const, field: 'line', message: 'line 1 of this request already adds this certificate' },
        },
      ],
    },
    meta: meta('req_Pa6dP9oS2iTi5Fg7'),
  },
  positionDeleted: { data: { id: leePosition.id, deleted: true as const }, meta: meta('req_Pr7mP0oS3iTi6Gh8') },
};
