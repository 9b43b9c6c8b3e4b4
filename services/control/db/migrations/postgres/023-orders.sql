-- PostgreSQL twin of ../023-orders.sql: checkout orders, fulfilled once by id.
CREATE TABLE orders (
  id TEXT COLLATE "C" PRIMARY KEY,
  client_id TEXT COLLATE "C" NOT NULL REFERENCES clients (id),
  item TEXT COLLATE "C" NOT NULL,
  price_usd_cents BIGINT NOT NULL CHECK (price_usd_cents >= 0),
  created_at TEXT COLLATE "C" NOT NULL,
  fulfilled_at TEXT COLLATE "C"
);

CREATE INDEX orders_client ON orders (client_id, created_at);
