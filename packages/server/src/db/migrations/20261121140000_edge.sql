-- The Edge API: license activations, usage counters and their reports, raw events.

CREATE TABLE license_instances (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  license_id uuid NOT NULL REFERENCES licenses (id),
  name text NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL,
  last_validated_at timestamptz,
  deactivated_at timestamptz
);
CREATE INDEX license_instances_active_idx ON license_instances (license_id) WHERE deactivated_at IS NULL;

-- Usage of one metered feature by one subscription in one reset period. period_start is the
-- start of the reset period (the subscription's start for NEVER); rollover is what the
-- previous period carried in.
CREATE TABLE usage_counters (
  environment_id uuid NOT NULL REFERENCES environments (id),
  subscription_id uuid NOT NULL REFERENCES subscriptions (id),
  feature_id uuid NOT NULL REFERENCES features (id),
  period_start timestamptz NOT NULL,
  period_end timestamptz,
  value bigint NOT NULL DEFAULT 0,
  rollover bigint NOT NULL DEFAULT 0,
  alerts_sent jsonb NOT NULL DEFAULT '[]'::jsonb,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (subscription_id, feature_id, period_start)
);

CREATE TABLE usage_reports (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  feature_id uuid NOT NULL REFERENCES features (id),
  subscription_id uuid REFERENCES subscriptions (id),
  behaviour text NOT NULL CHECK (behaviour IN ('SET', 'DELTA')),
  value bigint NOT NULL,
  resource_id text,
  client_idempotency_key text,
  reported_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  CONSTRAINT usage_reports_client_key UNIQUE (environment_id, client_idempotency_key)
);

CREATE TABLE usage_events (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  event_name text NOT NULL,
  idempotency_key text NOT NULL,
  occurred_at timestamptz NOT NULL,
  properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  resource_id text,
  created_at timestamptz NOT NULL,
  CONSTRAINT usage_events_idempotency_key UNIQUE (environment_id, idempotency_key)
);
CREATE INDEX usage_events_lookup_idx ON usage_events (environment_id, customer_id, event_name, occurred_at);
