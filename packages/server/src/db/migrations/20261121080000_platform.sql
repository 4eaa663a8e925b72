-- Tenancy: organizations, their two environments, and the keys that reach them.
CREATE TABLE partners (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE organizations (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  owner_email text,
  partner_id uuid REFERENCES partners (id),
  partner_external_id text,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX organizations_owner_email_key ON organizations (lower(owner_email));
CREATE UNIQUE INDEX organizations_partner_external_id_key ON organizations (partner_id, partner_external_id);

CREATE TABLE environments (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  kind text NOT NULL CHECK (kind IN ('sandbox', 'production')),
  created_at timestamptz NOT NULL,
  UNIQUE (organization_id, kind)
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('server', 'client', 'partner')),
  organization_id uuid REFERENCES organizations (id),
  environment_id uuid REFERENCES environments (id),
  partner_id uuid REFERENCES partners (id),
  prefix text NOT NULL UNIQUE,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz,
  CHECK ((kind = 'partner') = (partner_id IS NOT NULL AND environment_id IS NULL)),
  CHECK ((kind = 'partner') OR (environment_id IS NOT NULL AND organization_id IS NOT NULL))
);
CREATE INDEX api_keys_organization_idx ON api_keys (organization_id);

-- Customers of a seller, per environment.
CREATE TABLE customers (
  id uuid PRIMARY KEY,
  -- Creation order, strict even within one clock tick: lists are newest first by it.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  customer_id text NOT NULL,
  name text,
  email text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  billing_address jsonb,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  archived_at timestamptz,
  CONSTRAINT customers_customer_id_key UNIQUE (environment_id, customer_id)
);
CREATE INDEX customers_listing_idx ON customers (environment_id, seq DESC) WHERE archived_at IS NULL;

-- Responses remembered for Idempotency-Key replays. The scope is an environment id, or a partner's.
CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  locked_until timestamptz,
  response_status integer,
  response_body text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
