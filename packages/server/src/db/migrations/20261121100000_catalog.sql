-- The catalog: products, features, and plans whose published versions never change.

CREATE TABLE products (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  identifier text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  tax_code text NOT NULL,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  archived_at timestamptz,
  CONSTRAINT products_identifier_key UNIQUE (environment_id, identifier)
);
CREATE INDEX products_listing_idx ON products (environment_id, seq DESC) WHERE archived_at IS NULL;

CREATE TABLE product_settings (
  product_id uuid PRIMARY KEY REFERENCES products (id),
  environment_id uuid NOT NULL REFERENCES environments (id),
  vpn boolean NOT NULL DEFAULT true,
  tor boolean NOT NULL DEFAULT true,
  proxy boolean NOT NULL DEFAULT true,
  currency text,
  product_url text,
  modified_at timestamptz NOT NULL
);

CREATE TABLE product_images (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  product_id uuid NOT NULL REFERENCES products (id),
  name text,
  storage_key text NOT NULL,
  content_type text NOT NULL,
  size bigint NOT NULL,
  ordering integer NOT NULL DEFAULT 0,
  thumbnail boolean NOT NULL DEFAULT false,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL
);
CREATE INDEX product_images_product_idx ON product_images (product_id, ordering);
CREATE UNIQUE INDEX product_images_one_thumbnail ON product_images (product_id) WHERE thumbnail;

CREATE TABLE features (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  identifier text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  feature_type text NOT NULL CHECK (feature_type IN ('BOOLEAN', 'CUSTOMIZABLE', 'METER')),
  feature_details jsonb NOT NULL DEFAULT '{}'::jsonb,
  meter jsonb NOT NULL DEFAULT '{}'::jsonb,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  archived_at timestamptz,
  CONSTRAINT features_identifier_key UNIQUE (environment_id, identifier)
);
CREATE INDEX features_listing_idx ON features (environment_id, seq DESC) WHERE archived_at IS NULL;

-- A plan's identity; its content lives in versions. published_version points at the one on sale.
CREATE TABLE plans (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  identifier text NOT NULL,
  product_id uuid NOT NULL REFERENCES products (id),
  published_version integer,
  created_at timestamptz NOT NULL,
  archived_at timestamptz,
  CONSTRAINT plans_identifier_key UNIQUE (environment_id, identifier)
);
CREATE INDEX plans_product_idx ON plans (product_id);

CREATE TABLE plan_versions (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  plan_id uuid NOT NULL REFERENCES plans (id),
  version integer NOT NULL CHECK (version >= 1),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  is_visible boolean NOT NULL DEFAULT true,
  license jsonb,
  links jsonb NOT NULL DEFAULT '[]'::jsonb,
  ordering integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  published_at timestamptz,
  publish_options jsonb,
  CONSTRAINT plan_versions_version_key UNIQUE (plan_id, version)
);

-- Prices as validated documents; every amount inside is an integer in the currency's minor unit.
CREATE TABLE plan_prices (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  plan_version_id uuid NOT NULL REFERENCES plan_versions (id) ON DELETE CASCADE,
  position integer NOT NULL,
  price_type text NOT NULL CHECK (price_type IN ('FREE', 'PAID', 'CUSTOM')),
  currency text NOT NULL,
  free_trial boolean NOT NULL,
  trial_period integer NOT NULL,
  enabled boolean NOT NULL,
  tax_behavior text NOT NULL CHECK (tax_behavior IN ('INCLUSIVE', 'EXCLUSIVE', 'UNSPECIFIED')),
  charge_catalog_price jsonb NOT NULL,
  CONSTRAINT plan_prices_currency_key UNIQUE (plan_version_id, currency)
);

CREATE TABLE plan_entitlements (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  plan_version_id uuid NOT NULL REFERENCES plan_versions (id) ON DELETE CASCADE,
  feature_id uuid NOT NULL REFERENCES features (id),
  details jsonb NOT NULL,
  CONSTRAINT plan_entitlements_feature_key UNIQUE (plan_version_id, feature_id)
);

-- A file keeps its id across versions (callers address it by id); each version holds its own row.
CREATE TABLE plan_files (
  plan_version_id uuid NOT NULL REFERENCES plan_versions (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  environment_id uuid NOT NULL REFERENCES environments (id),
  name text NOT NULL,
  storage_key text NOT NULL,
  content_type text NOT NULL,
  size bigint NOT NULL,
  ordering integer NOT NULL DEFAULT 0,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (plan_version_id, id)
);
CREATE INDEX plan_files_id_idx ON plan_files (id);

-- Published versions are immutable, enforced here rather than trusted to the services.
CREATE FUNCTION billow_published_version_is_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.published_at IS NOT NULL THEN
    RAISE EXCEPTION 'plan version % is published and can never change', OLD.id
      USING ERRCODE = 'raise_exception', HINT = 'billow:published_version_immutable';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER plan_versions_immutable_when_published
  BEFORE UPDATE OR DELETE ON plan_versions
  FOR EACH ROW EXECUTE FUNCTION billow_published_version_is_immutable();

CREATE FUNCTION billow_published_version_parts_are_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND EXISTS (
    SELECT 1 FROM plan_versions WHERE id = OLD.plan_version_id AND published_at IS NOT NULL
  ) THEN
    RAISE EXCEPTION '% of published plan version % can never change', TG_TABLE_NAME, OLD.plan_version_id
      USING ERRCODE = 'raise_exception', HINT = 'billow:published_version_immutable';
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND EXISTS (
    SELECT 1 FROM plan_versions WHERE id = NEW.plan_version_id AND published_at IS NOT NULL
  ) THEN
    RAISE EXCEPTION '% of published plan version % can never change', TG_TABLE_NAME, NEW.plan_version_id
      USING ERRCODE = 'raise_exception', HINT = 'billow:published_version_immutable';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER plan_prices_immutable_when_published
  BEFORE INSERT OR UPDATE OR DELETE ON plan_prices
  FOR EACH ROW EXECUTE FUNCTION billow_published_version_parts_are_immutable();
CREATE TRIGGER plan_entitlements_immutable_when_published
  BEFORE INSERT OR UPDATE OR DELETE ON plan_entitlements
  FOR EACH ROW EXECUTE FUNCTION billow_published_version_parts_are_immutable();
CREATE TRIGGER plan_files_immutable_when_published
  BEFORE INSERT OR UPDATE OR DELETE ON plan_files
  FOR EACH ROW EXECUTE FUNCTION billow_published_version_parts_are_immutable();
