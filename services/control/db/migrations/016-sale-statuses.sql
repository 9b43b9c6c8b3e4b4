-- The sale statuses the change feed has told about (issue 20): one row per annual sale, so
-- certificate_sale.status_changed is recorded once per sale and status, whether the ingest or
-- the daily sale-status job sees the move first, and certificate_sale.created once per sale.
-- status NULL: the sale is announced by a first load of its county and tax year that has not
-- recorded its creation yet (the ingest that writes the sale records it and sets the status).
CREATE TABLE sale_statuses (
  sale_id TEXT PRIMARY KEY,
  county_slug TEXT NOT NULL,
  tax_year INTEGER NOT NULL,
  status TEXT CHECK (status IN ('scheduled', 'in_progress', 'completed')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;
