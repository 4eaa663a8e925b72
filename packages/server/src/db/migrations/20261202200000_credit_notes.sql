-- Credit notes (issue 27, item 4; decision 0065): a refund that settles and the credit for the unused
-- time of a plan change each issue one, numbered in a gapless sequence of their own per environment
-- and year (like invoice numbers, decision 0062), in the transaction that records the refund or the
-- change. A refund and a superseded subscription each have at most one.
CREATE TABLE credit_note_number_counters (
  environment_id uuid NOT NULL REFERENCES environments (id),
  year integer NOT NULL,
  last_number integer NOT NULL,
  PRIMARY KEY (environment_id, year)
);
CREATE TABLE credit_notes (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  number text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('REFUND', 'PRORATION')),
  invoice_id text REFERENCES invoices (id),
  order_id text REFERENCES orders (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  refund_id uuid REFERENCES refunds (id),
  subscription_id uuid REFERENCES subscriptions (id),
  currency text NOT NULL,
  subtotal_minor bigint NOT NULL,
  tax_minor bigint NOT NULL,
  total_minor bigint NOT NULL,
  lines jsonb NOT NULL,
  tax_totals jsonb NOT NULL,
  seller jsonb NOT NULL,
  buyer jsonb NOT NULL,
  issued_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX credit_notes_environment_number ON credit_notes (environment_id, number);
CREATE UNIQUE INDEX credit_notes_refund ON credit_notes (refund_id) WHERE refund_id IS NOT NULL;
CREATE UNIQUE INDEX credit_notes_proration ON credit_notes (subscription_id) WHERE reason = 'PRORATION';
CREATE INDEX credit_notes_listing_idx ON credit_notes (environment_id, seq DESC);
CREATE INDEX credit_notes_invoice_idx ON credit_notes (invoice_id);
CREATE INDEX credit_notes_customer_idx ON credit_notes (customer_id);
