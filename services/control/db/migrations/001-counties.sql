-- The 67-county directory (spec 2.6). Directory facts are upserted from the seed CSV
-- and the sale-channel registry on every start; coverage columns belong to ingest.
-- Timestamps are ISO-8601 UTC text so they sort and compare as strings.
CREATE TABLE counties (
  id INTEGER PRIMARY KEY,
  county_name TEXT NOT NULL UNIQUE,
  county_slug TEXT NOT NULL UNIQUE CHECK (county_slug GLOB '[a-z]*' AND county_slug NOT GLOB '*[^a-z-]*'),
  -- FIPS and DOR numbers are codes, not quantities: TEXT keeps leading zeros.
  county_fips TEXT CHECK (county_fips IS NULL OR (length(county_fips) = 5 AND county_fips NOT GLOB '*[^0-9]*')),
  dor_county_number TEXT CHECK (dor_county_number IS NULL OR dor_county_number NOT GLOB '*[^0-9]*'),
  property_appraiser_url TEXT,
  tax_collector_url TEXT,
  tax_certificate_sale_url TEXT,
  -- A registry channel code; not CHECKed here because the registry is data that may grow.
  tax_certificate_vendor TEXT,
  coverage_status TEXT NOT NULL DEFAULT 'directory_only'
    CHECK (coverage_status IN ('directory_only', 'vendor_tracked', 'certificate_level')),
  certificate_count INTEGER NOT NULL DEFAULT 0 CHECK (certificate_count >= 0),
  last_import_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;
