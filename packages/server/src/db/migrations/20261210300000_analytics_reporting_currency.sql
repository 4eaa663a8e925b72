-- The reporting currency of revenue analytics and the exchange rates the seller sets into it
-- (issue 30; decision 0102). A rate is kept exactly, as a decimal of bounded precision, with
-- when and by whom it was set; rates are kept per pair, so choosing another reporting
-- currency and coming back finds them again.
CREATE TABLE analytics_settings (
  environment_id uuid PRIMARY KEY REFERENCES environments (id),
  reporting_currency text,
  modified_at timestamptz NOT NULL
);

CREATE TABLE analytics_exchange_rates (
  environment_id uuid NOT NULL REFERENCES environments (id),
  from_currency text NOT NULL,
  to_currency text NOT NULL,
  rate numeric(24, 12) NOT NULL CHECK (rate > 0),
  set_at timestamptz NOT NULL,
  set_by text NOT NULL,
  PRIMARY KEY (environment_id, to_currency, from_currency),
  CHECK (from_currency <> to_currency)
);
