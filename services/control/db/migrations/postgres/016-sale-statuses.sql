-- PostgreSQL twin of ../016-sale-statuses.sql: the sale statuses the change feed has told about.
CREATE TABLE sale_statuses (
  sale_id TEXT COLLATE "C" PRIMARY KEY,
  county_slug TEXT COLLATE "C" NOT NULL,
  tax_year BIGINT NOT NULL,
  status TEXT COLLATE "C" CHECK (status IN ('scheduled', 'in_progress', 'completed')),
  updated_at TEXT COLLATE "C" NOT NULL DEFAULT now_iso()
);
