-- Searching invoices (decision 0104): the number and the id are matched anywhere (ILIKE
-- '%term%'), which read every invoice of the environment. Where the database offers pg_trgm
-- (as in 20261206100000_list_indexes) trigram indexes on both find the matches instead;
-- without it, the same answers come from reading the environment's invoices.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    RAISE NOTICE 'pg_trgm is not installed: invoice search runs without trigram indexes';
    RETURN;
  END IF;
  CREATE INDEX invoices_number_trgm_idx ON invoices USING gin (number gin_trgm_ops);
  CREATE INDEX invoices_id_trgm_idx ON invoices USING gin (id gin_trgm_ops);
END
$$;
