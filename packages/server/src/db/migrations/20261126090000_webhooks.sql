-- Webhooks (decision 0031): endpoints per environment, one delivery per event and subscribed
-- endpoint (the delivery is its own queue row: it carries the retry schedule and the per-object
-- order), and one log row per attempt.

-- Kept as written (json, not jsonb): the delivered body is the envelope in the order it was built.
ALTER TABLE events ALTER COLUMN payload TYPE json USING payload::json;

CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- Null: every event type.
  event_types text[],
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  -- Sealed with the instance key (AES-256-GCM); the previous secret signs too until it expires.
  secret_sealed text NOT NULL,
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz,
  standard_signature boolean NOT NULL DEFAULT false,
  consecutive_failures integer NOT NULL DEFAULT 0,
  failing_since timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_environment_idx ON webhook_endpoints (environment_id, created_at);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id uuid NOT NULL REFERENCES events (id),
  event_seq bigint NOT NULL,
  event_type text NOT NULL,
  -- The id of the event's object: deliveries of one object to one endpoint go in event order. Null: never waits (resend).
  ordering_key text,
  status text NOT NULL CHECK (status IN ('pending', 'delivering', 'succeeded', 'failed')),
  attempt_count integer NOT NULL DEFAULT 0,
  -- By the dispatcher's clock. Null: as soon as possible.
  next_attempt_at timestamptz,
  lease_until timestamptz,
  last_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at NULLS FIRST) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (lease_until) WHERE status = 'delivering';
CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (endpoint_id, ordering_key, event_seq)
  WHERE status IN ('pending', 'delivering');
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (last_attempt_at) WHERE status IN ('succeeded', 'failed');

CREATE TABLE webhook_attempts (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL,
  delivery_id uuid NOT NULL,
  -- No foreign key: the log outlives a deleted endpoint.
  endpoint_id uuid NOT NULL,
  event_id uuid NOT NULL REFERENCES events (id),
  event_type text NOT NULL,
  event_created_at timestamptz NOT NULL,
  retry_count integer NOT NULL,
  url text NOT NULL,
  request_headers jsonb NOT NULL,
  status_code integer,
  is_success boolean NOT NULL,
  error text,
  response_excerpt text NOT NULL DEFAULT '',
  duration_ms integer NOT NULL,
  attempted_at timestamptz NOT NULL
);
CREATE INDEX webhook_attempts_environment_idx ON webhook_attempts (environment_id, attempted_at DESC, id);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id);
