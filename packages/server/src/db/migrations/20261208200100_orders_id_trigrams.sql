-- Searching orders (decision 0089): the order id is matched anywhere (ILIKE '%term%'), and
-- with a million orders that read every one of them. Where the database offers pg_trgm (as
-- in 20261206100000_list_indexes) a trigram index on the id finds the matches instead;
-- without it, the same answers come from reading the environment's orders.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    RAISE NOTICE 'pg_trgm is not installed: order search runs without a trigram index';
    RETURN;
  END IF;
  CREATE INDEX orders_id_trgm_idx ON orders USING gin (id gin_trgm_ops);
END
$$;
