-- Feed registry (spec 2.7): one row per county and tax year.
CREATE TABLE sources (
  id INTEGER PRIMARY KEY,
  county_id INTEGER NOT NULL REFERENCES counties (id),
  tax_year INTEGER NOT NULL CHECK (tax_year BETWEEN 1900 AND 2200),
  vendor TEXT NOT NULL,
  sale_url TEXT,
  download_url TEXT,
  source_kind TEXT NOT NULL,
  requires_login INTEGER NOT NULL DEFAULT 0 CHECK (requires_login IN (0, 1)),
  last_checked_at TEXT,
  last_success_at TEXT,
  last_error TEXT,
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  notes TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (county_id, tax_year)
) STRICT;
