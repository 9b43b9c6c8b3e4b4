/**
 * Example answers for the OpenAPI document, recorded from the demo data
 * (fixtures/demo/broward/2024.csv.gz as it was, fixtures/files/holders and lands-available)
 * through the real routes. Spectral's oas3-valid-media-example checks each one
 * against its (closed) schema in test/integration/api/openapi-lint.test.ts, so an
 * example cannot drift from the shape it shows.
 */

import { toCsv } from '../csv.ts';
import { SALE_COLUMNS } from '../routes/certificate-sales/row.ts';
import { NOT_INCLUDED } from '../routes/certificate-quotes/map-row.ts';
import { CERTIFICATE_COLUMNS } from '../routes/certificates/row.ts';
import { HOLDER_COLUMNS } from '../routes/holders/row.ts';
import { LANDS_COLUMNS } from '../routes/lands-available/row.ts';
import { SOURCE_COLUMNS } from '../routes/sources/row.ts';

const meta = (request_id: string) => ({ request_id, dataset_status: 'live' as const });

const availableCertificate = {
  id: 'cert_13fae259dda9484d7ee8',
  certificate_number: '007971',
  county_slug: 'broward',
  county_name: 'Broward',
  parcel_id: '4842 29 43 9547',
  tax_year: 2024,
  status: 'available',
  face_amount: 66.08,
  delinquent_amount: 54.24,
  interest_rate: 18,
  sale_date: '2025-05-30',
  holder_id: 'hld_9324485ec78373692166',
  holder_name: 'Broward County',
  vendor: 'lienport',
  redeemed: false,
  redeemed_date: null,
  redemption_amount: null,
  tax_deed_application_date: null,
  owner_name: 'ROBERTS MICHAEL A',
  site_address_full: '0 SW 85TH DR, POMPANO BEACH, FL 33069',
  parcel_url: 'https://parcels.taxcert.dev/api/v1/parcels/broward/4842%2029%2043%209547',
};
const redeemedCertificate = {
  id: 'cert_277eaa73abc2c4968926',
  certificate_number: '007973',
  county_slug: 'broward',
  county_name: 'Broward',
  parcel_id: '5141 33 75 9536',
  tax_year: 2024,
  status: 'redeemed',
  face_amount: 865.87,
  delinquent_amount: 794.79,
  interest_rate: 11,
  sale_date: '2025-05-30',
  holder_id: 'hld_da40b0343a77836835ac',
  holder_name: 'FL TAX LIEN FUND 11 LLC',
  vendor: 'lienport',
  redeemed: true,
  redeemed_date: '2025-07-07',
  redemption_amount: 909.16,
  tax_deed_application_date: null,
  owner_name: 'OCEANVIEW REALTY LLC',
  site_address_full: '13294 RIVERLAND RD UNIT 504, MIRAMAR, FL 33023',
  parcel_url: 'https://parcels.taxcert.dev/api/v1/parcels/broward/5141%2033%2075%209536',
};
const soldCertificate = {
  id: 'cert_854ddd1f1e1ae6e6f9aa',
  certificate_number: '007974',
  county_slug: 'broward',
  county_name: 'Broward',
  parcel_id: '5140 28 33 9548',
  tax_year: 2024,
  status: 'sold',
  face_amount: 479.32,
  delinquent_amount: 436.87,
  interest_rate: 2.5,
  sale_date: '2025-05-30',
  holder_id: 'hld_834dbdacd41e1e0c4996',
  holder_name: 'EVANS CARMEN M',
  vendor: 'lienport',
  redeemed: false,
  redeemed_date: null,
  redemption_amount: null,
  tax_deed_application_date: null,
  owner_name: 'BAKER BEATRIZ & KEISHA M',
  site_address_full: '4563 S SAMPLE RD, PEMBROKE PINES, FL 33026',
  parcel_url: 'https://parcels.taxcert.dev/api/v1/parcels/broward/5140%2028%2033%209548',
};
const browardSource = {
  id: '1',
  countyId: '6',
  countySlug: 'broward',
  taxYear: 2024,
  vendor: 'lienport',
  saleUrl: 'https://broward.lienport.com/certificate-sale',
  downloadUrl: null,
  sourceKind: 'cert_sale_portal',
  requiresLogin: false,
  lastCheckedAt: '2026-11-24T08:44:16.382Z',
  lastSuccessAt: '2026-11-24T08:44:16.382Z',
  lastError: null,
  active: true,
  notes: 'registered by the first ingest of this county-year',
  createdAt: '2026-11-24T08:44:17.400Z',
  updatedAt: '2026-11-24T08:44:17.401Z',
};
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
const browardCounty = {
  id: '6',
  countyName: 'Broward',
  countySlug: 'broward',
  countyFips: '12011',
  dorCountyNumber: '16',
  propertyAppraiserUrl: null,
  taxCollectorUrl: null,
  taxCertificateSaleUrl: 'https://broward.lienport.com/certificate-sale',
  taxCertificateVendor: 'lienport',
  coverageStatus: 'certificate_level',
  certificateCount: 29,
  lastImportAt: '2026-11-24T08:44:16.382Z',
  createdAt: '2026-11-24T08:44:15.180Z',
  updatedAt: '2026-11-24T08:44:17.401Z',
};

const sales = [
      {
        id: 'csale_380e360f1b18da8df35f',
        county_slug: 'broward',
        county_name: 'Broward',
        tax_year: 2024,
        sale_date: '2025-05-28',
        vendor: 'lienport',
        sale_url: 'https://broward.lienport.com/certificate-sale',
        certificates_offered: 29,
        certificates_sold: 25,
        face_value_offered: 71742.87,
        face_value_sold: 51547.48,
        average_bid_rate: 5.38,
        struck_to_county: 4,
        status: 'completed',
      },
    ];

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

export const examples = {
  certificateList: {
    data: [availableCertificate, redeemedCertificate],
    pagination: {
      limit: 2,
      offset: 0,
      total: 29,
      has_more: true,
    },
    facets: {
      status: [
        {
          value: 'redeemed',
          count: 22,
        },
        {
          value: 'sold',
          count: 6,
        },
        {
          value: 'available',
          count: 1,
        },
      ],
    },
    meta: meta('req_7QjW9pMj1gCGx3QC'),
  },
  certificate: { data: soldCertificate, meta: meta('req_4IyXt5Si4B_YP54a') },
  certificatesByParcel: {
    data: [soldCertificate],
    pagination: {
      limit: 25,
      offset: 0,
      total: 1,
      has_more: false,
    },
    meta: meta('req_F3ukDxErRAy4CFfI'),
  },
  certificateCounts: {
    data: {
      county: 'broward',
      tax_year: 2024,
      counts: [
        {
          status: 'redeemed',
          count: 22,
        },
        {
          status: 'sold',
          count: 6,
        },
        {
          status: 'available',
          count: 1,
        },
        {
          status: 'advertised',
          count: 0,
        },
        {
          status: 'cancelled',
          count: 0,
        },
        {
          status: 'lands_available',
          count: 0,
        },
        {
          status: 'tax_deed_applied',
          count: 0,
        },
      ],
    },
    meta: meta('req_EHHrjY9563ftL5LM'),
  },
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
  certificateFreshness: {
    data: {
      certificate_count: 29,
      latest_tax_year: 2024,
      last_ingested_at: '2026-11-24T08:44:16.382Z',
      last_source_success_at: '2026-11-24T08:44:16.382Z',
    },
    meta: meta('req_rTBb2pE3_MOcBwBz'),
  },
  certificateSaleList: {
    data: sales,
    pagination: {
      limit: 2,
      offset: 0,
      total: 1,
      has_more: false,
    },
    meta: meta('req_i46MzEo-2HMrbjla'),
  },
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
  countyList: {
    data: [
      {
        id: '1',
        countyName: 'Alachua',
        countySlug: 'alachua',
        countyFips: '12001',
        dorCountyNumber: '11',
        propertyAppraiserUrl: null,
        taxCollectorUrl: null,
        taxCertificateSaleUrl: 'https://alachua.lienport.com/certificate-sale',
        taxCertificateVendor: 'lienport',
        coverageStatus: 'directory_only',
        certificateCount: 0,
        lastImportAt: null,
        createdAt: '2026-11-24T08:44:15.180Z',
        updatedAt: '2026-11-24T08:44:15.180Z',
      },
      browardCounty,
    ],
    meta: meta('req_x67uep7imm7oQb27'),
  },
  county: { data: browardCounty, meta: meta('req_Ov13BNqSWrhF5p_x') },
  sourceList: {
    data: [browardSource],
    pagination: {
      limit: 2,
      offset: 0,
      total: 1,
      has_more: false,
    },
    meta: meta('req_WCeVhBfA27DvWWu_'),
  },
  countySources: {
    data: [browardSource],
    pagination: { limit: 100, offset: 0, total: 1, has_more: false },
    meta: meta('req_HDSGaSbyWJGDmYD3'),
  },
  usage: {
    data: {
      events_count: 14,
      monthly_quota: 2000000000,
      percent_used: 0,
      reset_date: '2026-12-01T00:00:00.000Z',
      plan: 'enterprise',
    },
    meta: meta('req_bPfZeE8sMS4wr-Lb'),
  },
  // Issue 18 items 1-3: Broward parcel 5142 25 19 9565 of the demo set (tax years 2024 and 2025 outstanding).
  redemptionQuote: {
    data: {
      certificate_id: 'cert_aff3088a0d328df05c29',
      as_of: '2026-11-24',
      status: 'sold',
      redeemable: true,
      reason: null,
      face_amount: 1777.99,
      interest_rate: 0.25,
      first_interest_month: '2025-06',
      interest_months: 18,
      accrued_interest: 6.67,
      minimum_interest: 88.9,
      interest_due: 88.9,
      rule: 'minimum_5_percent',
      holder_amount: 1866.89,
      redemption_fee: 6.25,
      total_due: 1873.14,
      deed_application_pending: false,
      statute: ['s. 197.172', 's. 197.402(3)', 's. 197.472'],
    },
    meta: meta('req_Qz8bVtR2mLx0aP7c'),
  },
  certificateTimeline: {
    data: {
      certificate_id: 'cert_aff3088a0d328df05c29',
      as_of: '2026-11-24',
      status: 'sold',
      dates: {
        sale: '2025-05-28',
        interest_starts: '2025-06-01',
        deed_application_earliest: '2027-04-01',
        expires: '2032-05-28',
        tax_deed_application: null,
        redeemed: null,
      },
      next_deadline: { name: 'deed_application_earliest', date: '2027-04-01', days_left: 128 },
    },
    meta: meta('req_Wk3nHs9dEe1uTq5b'),
  },
  deedEstimate: {
    data: {
      certificate_id: 'cert_aff3088a0d328df05c29',
      as_of: '2027-04-01',
      status: 'sold',
      eligible: true,
      eligible_from: '2027-04-01',
      other_certificates: [
        {
          id: 'cert_f2c7095fefb5731ffad2',
          certificate_number: '004831',
          tax_year: 2025,
          status: 'sold',
          holder_name: 'HARBORVIEW NATIONAL BANK CUST FOR TLF 2024 LLC',
          holder_amount: 2149.11,
        },
      ],
      other_certificates_total: 2149.11,
      application_fee: 75,
      known_total: 2224.11,
      not_included: [...NOT_INCLUDED],
    },
    meta: meta('req_Pd6yLc4rGv2oNs8x'),
  },
  // Holder groups (issue 18 item 5): a numbered-fund family and a county's own certificates.
  holderGroupList: {
    data: [
      {
        group_id: 'grp_5d0c2f8e91a4b7c3e6f1',
        name: 'FL TAX LIEN FUND',
        members: [
          { name: 'FL TAX LIEN FUND 11 LLC', certificates: 1480 },
          { name: 'Fl Tax Lien Fund 3, L.L.C.', certificates: 912 },
          { name: 'FLORIDA TAX LIEN FUND 7 LLC', certificates: 35 },
        ],
        certificates: 2427,
        face_amount: 3184512.4,
        outstanding_face_amount: 2210377.15,
        counties: ['broward', 'miami-dade', 'palm-beach'],
        first_tax_year: 2021,
        last_tax_year: 2024,
        median_rate: 0.25,
        share_quarter: 0.6412,
        redeemed_share: 0.2896,
        county_held: false,
      },
      {
        group_id: 'grp_a93e41c07b2d58f6e0c4',
        name: 'Broward County',
        members: [{ name: 'Broward County', certificates: 611 }],
        certificates: 611,
        face_amount: 402218.9,
        outstanding_face_amount: 398870.55,
        counties: ['broward'],
        first_tax_year: 2021,
        last_tax_year: 2024,
        median_rate: 18,
        share_quarter: 0,
        redeemed_share: 0.0049,
        county_held: true,
      },
    ],
    pagination: { limit: 2, offset: 0, total: 318, has_more: true },
    meta: meta('req_q7XvR2m9Hk0sLd3A'),
  },
  // The CSV answers hold the same rows, written by the same writer as the real ones.
  certificateCsv: toCsv([...CERTIFICATE_COLUMNS], [availableCertificate, redeemedCertificate]),
  certificateSaleCsv: toCsv(SALE_COLUMNS, sales),
  holderCsv: toCsv(HOLDER_COLUMNS, [gulfCoast, obrien]),
  landsAvailableCsv: toCsv(LANDS_COLUMNS, landsRows),
  sourceCsv: toCsv(SOURCE_COLUMNS, [browardSource]),
};

/**
 * GET /analytics/bid-rates (issue 18 item 4), recorded from fixtures/demo/broward/2024.csv: its
 * certificates, face and mean rate are the sale summary's certificates_sold, face_value_sold and
 * average_bid_rate above.
 */
export const bidRateExample = {
  data: {
    scope: { county: ['broward'], tax_year: [2024], vendor: null },
    certificates: 25,
    struck_to_county: 4,
    face_amount: 51547.48,
    rate: { min: 0.25, p25: 0.25, median: 2.5, p75: 10, max: 18, mean: 5.38, face_weighted_mean: 2.9779 },
    shares: { zero: 0, quarter: 0.28, at_or_below_1: 0.4, above_5: 0.4, at_18: 0.04 },
    histogram: [
      { rate: 0.25, certificates: 7, face_amount: 23819.77 },
      { rate: 0.5, certificates: 1, face_amount: 1756.26 },
      { rate: 0.75, certificates: 2, face_amount: 2668.2 },
      { rate: 1.5, certificates: 1, face_amount: 1272.24 },
      { rate: 1.75, certificates: 1, face_amount: 512.5 },
      { rate: 2.5, certificates: 2, face_amount: 11604.17 },
      { rate: 4, certificates: 1, face_amount: 922.05 },
      { rate: 7, certificates: 1, face_amount: 437.59 },
      { rate: 7.75, certificates: 1, face_amount: 284.74 },
      { rate: 9, certificates: 1, face_amount: 1790.74 },
      { rate: 10, certificates: 1, face_amount: 650.94 },
      { rate: 11, certificates: 1, face_amount: 865.87 },
      { rate: 11.25, certificates: 1, face_amount: 828.3 },
      { rate: 13.75, certificates: 1, face_amount: 1354.38 },
      { rate: 14.25, certificates: 1, face_amount: 1043.89 },
      { rate: 16.5, certificates: 1, face_amount: 1543.07 },
      { rate: 18, certificates: 1, face_amount: 192.77 },
    ],
    by_county: [{ county: 'broward', certificates: 25, median: 2.5, share_quarter: 0.28, share_above_5: 0.4 }],
  },
  meta: meta('req_ZZfLY6XXOjojzQim'),
};
