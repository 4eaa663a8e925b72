-- Downloadable files of a product (the reference's ProductFile), attached with fileKeys on
-- PATCH /catalog/products/{pk}/, as plan files are on plans.
CREATE TABLE product_files (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  product_id uuid NOT NULL REFERENCES products (id),
  name text NOT NULL,
  storage_key text NOT NULL,
  content_type text NOT NULL,
  size bigint NOT NULL,
  ordering integer NOT NULL DEFAULT 0,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL
);
CREATE INDEX product_files_product_idx ON product_files (product_id, ordering);
