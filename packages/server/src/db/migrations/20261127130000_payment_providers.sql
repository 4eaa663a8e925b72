-- A payment provider configured for one environment of an organization (decision 0039).
-- Secrets are sealed with AES-256-GCM under a key derived from the instance secret; the
-- hints (a prefix and the last four characters) are all that is ever shown again.
CREATE TABLE payment_providers (
  environment_id uuid PRIMARY KEY REFERENCES environments (id),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  provider text NOT NULL CHECK (provider IN ('stripe')),
  secret_key_sealed text NOT NULL,
  secret_key_hint text NOT NULL,
  webhook_secret_sealed text NOT NULL,
  webhook_secret_hint text NOT NULL,
  -- Public by design (Stripe.js needs it on the checkout page): kept as is.
  publishable_key text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Stripe's webhook deliveries already handled, by Stripe event id: a redelivery changes nothing.
CREATE TABLE provider_events (
  environment_id uuid NOT NULL REFERENCES environments (id),
  event_id text NOT NULL,
  type text NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (environment_id, event_id)
);

-- A Stripe webhook names the intent by the key its calls carried; a dispute names the charge.
CREATE INDEX payment_intents_provider_key ON payment_intents (provider_key);
CREATE INDEX transactions_provider_ref ON transactions (provider_ref) WHERE provider_ref IS NOT NULL;
