-- Discounts (decision 0032): codes a buyer enters at checkout, counted exactly under concurrency.
-- Amounts are integers in the minor unit of their ISO 4217 currency; a percentage is in basis points.

CREATE TABLE discounts (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  name text NOT NULL,
  -- As the seller wrote it; compared without regard to case.
  code text NOT NULL,
  discount_type text NOT NULL CHECK (discount_type IN ('PERCENTAGE', 'FIXED_AMOUNT')),
  -- 1..10000 (0.01 % .. 100 %) for PERCENTAGE, null otherwise.
  percent_off_bp integer CHECK (percent_off_bp BETWEEN 1 AND 10000),
  duration text NOT NULL CHECK (duration IN ('ONCE', 'REPEATING', 'FOREVER')),
  duration_in_cycles integer CHECK (duration_in_cycles BETWEEN 1 AND 120),
  max_redemptions integer CHECK (max_redemptions >= 1),
  times_redeemed integer NOT NULL DEFAULT 0 CHECK (times_redeemed >= 0),
  expires_at timestamptz,
  plan_ids uuid[] NOT NULL DEFAULT '{}',
  product_ids uuid[] NOT NULL DEFAULT '{}',
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  archived_at timestamptz,
  CHECK ((discount_type = 'PERCENTAGE') = (percent_off_bp IS NOT NULL)),
  CHECK ((duration = 'REPEATING') = (duration_in_cycles IS NOT NULL)),
  CHECK (max_redemptions IS NULL OR times_redeemed <= max_redemptions)
);
-- One live discount per code and environment; an archived one frees its code.
CREATE UNIQUE INDEX discounts_code_key ON discounts (environment_id, lower(code)) WHERE archived_at IS NULL;
CREATE INDEX discounts_listing_idx ON discounts (environment_id, seq DESC);

-- FIXED_AMOUNT: the amount off per currency.
CREATE TABLE discount_amounts (
  discount_id uuid NOT NULL REFERENCES discounts (id) ON DELETE CASCADE,
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  PRIMARY KEY (discount_id, currency)
);

-- One row per redemption. The subscription and the order may be written later in the
-- same transaction as the redemption, so their keys are checked at commit.
CREATE TABLE discount_redemptions (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  discount_id uuid NOT NULL REFERENCES discounts (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  subscription_id uuid REFERENCES subscriptions (id) DEFERRABLE INITIALLY DEFERRED,
  order_id text REFERENCES orders (id) DEFERRABLE INITIALLY DEFERRED,
  redeemed_at timestamptz NOT NULL
);
CREATE INDEX discount_redemptions_discount_idx ON discount_redemptions (discount_id, redeemed_at);

-- The discount a subscription carries into its renewals, and how many renewals it has left.
CREATE TABLE subscription_discounts (
  subscription_id uuid PRIMARY KEY REFERENCES subscriptions (id) DEFERRABLE INITIALLY DEFERRED,
  environment_id uuid NOT NULL REFERENCES environments (id),
  discount_id uuid NOT NULL REFERENCES discounts (id),
  redemption_id uuid NOT NULL REFERENCES discount_redemptions (id),
  -- Renewals still discounted; null: every renewal (FOREVER).
  cycles_remaining integer CHECK (cycles_remaining >= 0),
  renewals_discounted integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL
);
CREATE INDEX subscription_discounts_discount_idx ON subscription_discounts (discount_id);
