-- Promotions (decision 0033): location pricing served by the Edge API's GET /promotions.
-- One row per promotion; its rules are small and always read whole, hence jsonb.

CREATE TABLE promotions (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  name text NOT NULL,
  product_id uuid NOT NULL REFERENCES products (id),
  -- Null: every published plan of the product.
  plan_identifiers text[],
  -- [{group, percentage}], one per purchasing-power group.
  ppp_discounts jsonb NOT NULL,
  -- [{countryCode, percentage}], sorted by country; they win over the groups.
  country_overrides jsonb NOT NULL,
  coupon_code text,
  message text NOT NULL DEFAULT '',
  banner jsonb NOT NULL,
  security jsonb NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  archived_at timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);
CREATE INDEX promotions_listing_idx ON promotions (environment_id, seq DESC);
CREATE INDEX promotions_product_idx ON promotions (product_id);
