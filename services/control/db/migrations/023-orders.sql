-- What a customer bought on the account page's checkout, one row per checkout form. The form
-- carries the order's id, so the same form posted again (a double click, a reload, a payment
-- provider confirming twice) finds the one order and grants nothing twice: fulfilled_at is set
-- by the one UPDATE that fulfils the order, in the transaction that grants it
-- (services/control/orders.ts). item is what was bought, as the form names it: plan:pro, pack:starter.
CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients (id),
  item TEXT NOT NULL,
  price_usd_cents INTEGER NOT NULL CHECK (price_usd_cents >= 0),
  created_at TEXT NOT NULL,
  fulfilled_at TEXT
) STRICT;

CREATE INDEX orders_client ON orders (client_id, created_at);
