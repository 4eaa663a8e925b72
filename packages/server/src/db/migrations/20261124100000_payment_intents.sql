-- Money moves in two transactions with the provider call between them (decision 0026):
-- the first records an intent, the second settles it. An intent left in `processing`
-- by a process that died is settled by the recovery task under the same provider key.
CREATE TABLE payment_intents (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  kind text NOT NULL CHECK (kind IN ('charge', 'subscription_create', 'subscription_update')),
  status text NOT NULL CHECK (status IN ('processing', 'succeeded', 'failed', 'reversed')),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  currency text NOT NULL,
  -- The idempotency key given to the provider: derived from the intent, the same on every retry.
  provider_key text NOT NULL,
  provider_ref text,
  payment_method_id bigint REFERENCES payment_methods (id),
  method_ref text NOT NULL,
  description text NOT NULL,
  plan_version_id uuid NOT NULL,
  -- What the request asked (its scope and body): enough to settle it again after a crash.
  request jsonb NOT NULL,
  -- The answer the request got, once settled.
  result jsonb,
  failure_code text,
  failure_message text,
  idempotency_scope text,
  idempotency_key text,
  created_at timestamptz NOT NULL,
  settled_at timestamptz,
  CONSTRAINT payment_intents_provider_key_key UNIQUE (provider_key)
);
-- One payment in flight per customer: a second waits its turn (409 payment_in_progress).
CREATE UNIQUE INDEX payment_intents_one_processing ON payment_intents (customer_id) WHERE status = 'processing';
CREATE UNIQUE INDEX payment_intents_idempotency ON payment_intents (idempotency_scope, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX payment_intents_processing_idx ON payment_intents (created_at) WHERE status = 'processing';
