-- Checkout sessions (issue 13, decision 0034): what a seller (or a buy link) asked the hosted page
-- to sell, and the page's progress. The id (`cs_` + 48 random base62 characters) is the only
-- credential of the page: unguessable, never derived from anything else.
CREATE TABLE checkout_sessions (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  status text NOT NULL CHECK (status IN ('open', 'processing', 'success', 'expired')),
  -- Which submission of the page is being paid; a declined attempt makes the next one a new payment.
  attempt integer NOT NULL DEFAULT 0,
  product_id uuid NOT NULL,
  plan_identifier text NOT NULL,
  charge_period text NOT NULL,
  -- Plan identifiers the buyer may choose between (plansEnabled); null: only plan_identifier.
  plans_enabled text[],
  -- The merchant's id of the customer (customers.customer_id): given, or generated on completion.
  customer_ref text,
  customer_id uuid,
  features jsonb NOT NULL DEFAULT '[]',
  ip_address text,
  currency_code text,
  custom_amount_minor bigint,
  tax_behavior text CHECK (tax_behavior IN ('INCLUSIVE', 'EXCLUSIVE')),
  discounts_enabled boolean NOT NULL DEFAULT true,
  discount_code text,
  lock_email boolean NOT NULL DEFAULT false,
  default_billing_country text,
  success_url text NOT NULL,
  cancel_url text,
  metadata json NOT NULL DEFAULT '{}',
  -- Accepted from the official client and kept; not resolved yet (docs/checkout.md).
  offering_id text,
  pricing_table_id text,
  rule_id text,
  -- What the buyer entered on the page (name, email, billing country); never card data.
  email text,
  name text,
  billing_country text,
  payment_method_id bigint,
  order_id text,
  invoice_id text,
  subscription_id uuid,
  amount_minor bigint,
  currency text,
  -- The environment's API base at creation, for answers recorded by the purchase.
  api_base text NOT NULL,
  created_via text NOT NULL CHECK (created_via IN ('api', 'buy_link')),
  expires_at timestamptz NOT NULL,
  completed_at timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);
CREATE INDEX checkout_sessions_list_idx ON checkout_sessions (environment_id, created_at DESC, seq DESC);

-- A session's timeline (GET /checkout/sessions/{id}/events/).
CREATE TABLE checkout_session_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_id text NOT NULL REFERENCES checkout_sessions (id),
  code text NOT NULL,
  title text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'success', 'failed')),
  metadata json NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE INDEX checkout_session_events_session_idx ON checkout_session_events (session_id, id DESC);

ALTER TABLE payment_intents DROP CONSTRAINT payment_intents_kind_check;
ALTER TABLE payment_intents ADD CONSTRAINT payment_intents_kind_check
  CHECK (kind IN ('charge', 'subscription_create', 'subscription_update', 'renewal', 'invoice_payment', 'checkout'));

-- An on-session payment (the hosted checkout) may wait for the buyer to authenticate the card:
-- the provider's charge, and until when the recovery task leaves the intent alone.
ALTER TABLE payment_intents ADD COLUMN action_ref text;
ALTER TABLE payment_intents ADD COLUMN action_expires_at timestamptz;
