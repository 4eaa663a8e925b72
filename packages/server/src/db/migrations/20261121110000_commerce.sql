-- Commerce: payment methods, orders, invoices, transactions, refunds, subscriptions, licenses, events.
-- Every amount is an integer in the minor unit of the row's currency.

ALTER TABLE organizations ADD COLUMN blocked_at timestamptz;
ALTER TABLE organizations ADD COLUMN blocked_reason text;

-- Fixed by the customer's first purchase; credit comes from downgrades and is spent on the next invoices.
ALTER TABLE customers ADD COLUMN currency text;
ALTER TABLE customers ADD COLUMN credit_minor bigint NOT NULL DEFAULT 0 CHECK (credit_minor >= 0);

CREATE TABLE payment_methods (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  method_type text NOT NULL DEFAULT 'card',
  brand text,
  last4 text,
  exp_month integer,
  exp_year integer,
  funding text,
  country text,
  -- The provider's handle for the method; for the sandbox provider, the test card itself.
  provider_ref text NOT NULL,
  status text NOT NULL CHECK (status IN ('succeeded', 'requires_action')),
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX payment_methods_customer_idx ON payment_methods (customer_id, id DESC);
CREATE UNIQUE INDEX payment_methods_one_default ON payment_methods (customer_id) WHERE is_default AND deleted_at IS NULL;

CREATE TABLE subscriptions (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  product_id uuid NOT NULL REFERENCES products (id),
  plan_id uuid NOT NULL REFERENCES plans (id),
  plan_version_id uuid NOT NULL REFERENCES plan_versions (id),
  price_id uuid NOT NULL REFERENCES plan_prices (id),
  charge_period text NOT NULL,
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'superseded')),
  -- What one period costs, tax included when the price is INCLUSIVE; the order holds the breakdown.
  amount_minor bigint NOT NULL,
  quantities jsonb NOT NULL DEFAULT '{}'::jsonb,
  start_date timestamptz NOT NULL,
  current_period_start timestamptz,
  current_period_end timestamptz,
  trial_end timestamptz,
  end_date timestamptz,
  canceled_at timestamptz,
  cancellation_reason text,
  cancellation_feedback text,
  cancellation_comment text,
  payment_method_id bigint REFERENCES payment_methods (id),
  -- The record this one replaces (plan changes create a new row; the old one becomes superseded).
  previous_subscription_id uuid REFERENCES subscriptions (id),
  -- activate_on_payment: when an incomplete successor gives up.
  pending_expires_at timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);
CREATE INDEX subscriptions_customer_idx ON subscriptions (customer_id, seq DESC);
CREATE INDEX subscriptions_renewal_idx ON subscriptions (current_period_end) WHERE status IN ('active', 'trialing', 'past_due');
-- At most one successor of a subscription is active or pending at a time.
CREATE UNIQUE INDEX subscriptions_one_live_successor ON subscriptions (previous_subscription_id)
  WHERE previous_subscription_id IS NOT NULL AND status IN ('incomplete', 'active', 'trialing', 'past_due');

CREATE TABLE orders (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  product_id uuid NOT NULL REFERENCES products (id),
  plan_id uuid NOT NULL REFERENCES plans (id),
  plan_version_id uuid NOT NULL REFERENCES plan_versions (id),
  subscription_id uuid REFERENCES subscriptions (id),
  status text NOT NULL CHECK (status IN ('PENDING', 'COMPLETE', 'FAILED', 'REFUNDED', 'PARTIAL_REFUND', 'CANCELLED', 'FRAUDULENT')),
  billing_type text NOT NULL CHECK (billing_type IN ('ONE_TIME', 'SUBSCRIPTION')),
  charge_period text NOT NULL,
  is_renewal boolean NOT NULL DEFAULT false,
  is_trial boolean NOT NULL DEFAULT false,
  currency text NOT NULL,
  subtotal_minor bigint NOT NULL,
  discount_minor bigint NOT NULL DEFAULT 0,
  tax_minor bigint NOT NULL DEFAULT 0,
  total_minor bigint NOT NULL,
  credit_applied_minor bigint NOT NULL DEFAULT 0,
  refunded_minor bigint NOT NULL DEFAULT 0 CHECK (refunded_minor >= 0),
  tax_rate_bp integer NOT NULL DEFAULT 0,
  tax_behavior text NOT NULL DEFAULT 'EXCLUSIVE',
  tax_country text,
  lines jsonb NOT NULL DEFAULT '[]'::jsonb,
  billing_address jsonb,
  payment_method_id bigint REFERENCES payment_methods (id),
  paid_at timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  CHECK (refunded_minor <= total_minor)
);
CREATE INDEX orders_listing_idx ON orders (environment_id, paid_at DESC, seq DESC);
CREATE INDEX orders_customer_idx ON orders (customer_id);
CREATE INDEX orders_subscription_idx ON orders (subscription_id);

CREATE TABLE order_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  order_id text NOT NULL REFERENCES orders (id),
  -- Orders of one subscription share a timeline.
  subscription_id uuid REFERENCES subscriptions (id),
  code text NOT NULL,
  title text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'success', 'failed')),
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL
);
CREATE INDEX order_events_order_idx ON order_events (order_id, id);
CREATE INDEX order_events_subscription_idx ON order_events (subscription_id, id);

CREATE TABLE invoices (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  order_id text NOT NULL UNIQUE REFERENCES orders (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  status text NOT NULL CHECK (status IN ('OPEN', 'PAID', 'PAYMENT_FAILED')),
  currency text NOT NULL,
  subtotal_minor bigint NOT NULL,
  discount_minor bigint NOT NULL,
  tax_minor bigint NOT NULL,
  total_minor bigint NOT NULL,
  lines jsonb NOT NULL,
  seller jsonb NOT NULL,
  buyer jsonb NOT NULL,
  issued_at timestamptz NOT NULL,
  due_at timestamptz,
  paid_at timestamptz,
  modified_at timestamptz NOT NULL
);
CREATE INDEX invoices_listing_idx ON invoices (environment_id, seq DESC);

CREATE TABLE transactions (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  order_id text NOT NULL REFERENCES orders (id),
  refund_id uuid,
  transaction_type text NOT NULL CHECK (transaction_type IN ('CHARGE', 'REFUND', 'CHARGEBACK', 'CHARGEBACK_REVERSAL', 'CREDIT', 'PAYOUT', 'ADJUSTMENT')),
  status text NOT NULL CHECK (status IN ('success', 'failure', 'pending')),
  currency text NOT NULL,
  amount_minor bigint NOT NULL,
  fee_minor bigint NOT NULL DEFAULT 0,
  fee_breakdown jsonb NOT NULL DEFAULT '[]'::jsonb,
  tax_minor bigint NOT NULL DEFAULT 0,
  net_minor bigint NOT NULL,
  payment_method_id bigint REFERENCES payment_methods (id),
  provider_ref text,
  failure_reason text,
  available_on date,
  created_at timestamptz NOT NULL
);
CREATE INDEX transactions_listing_idx ON transactions (environment_id, seq DESC);
CREATE INDEX transactions_order_idx ON transactions (order_id);

CREATE TABLE refunds (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  order_id text NOT NULL REFERENCES orders (id),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  currency text NOT NULL,
  reason text NOT NULL,
  internal_note text,
  status text NOT NULL CHECK (status IN ('PENDING', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'CANCELED')),
  failure_reason text,
  provider_ref text,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);
CREATE INDEX refunds_listing_idx ON refunds (environment_id, seq DESC);
CREATE INDEX refunds_order_idx ON refunds (order_id);

CREATE TABLE licenses (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  order_id text NOT NULL REFERENCES orders (id),
  subscription_id uuid REFERENCES subscriptions (id),
  plan_version_id uuid NOT NULL REFERENCES plan_versions (id),
  license_key text NOT NULL,
  activation_limit integer,
  activation_limit_enabled boolean NOT NULL DEFAULT false,
  expires_on timestamptz,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  CONSTRAINT licenses_key_key UNIQUE (environment_id, license_key)
);
CREATE INDEX licenses_subscription_idx ON licenses (subscription_id);
CREATE INDEX licenses_order_idx ON licenses (order_id);

-- Business events, written in the transaction that causes them; webhook delivery reads from here.
CREATE TABLE events (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX events_environment_idx ON events (environment_id, seq);
