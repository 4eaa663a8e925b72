-- Lists at scale (issue 29, item 4; decision 0079): an index for each order a dashboard list
-- can be asked for (Billow's `sort`), so that a page is a walk of an index however many rows
-- the environment holds, and a count reads the narrowest index there is.

-- Customers: newest first is customers_listing_idx (environment_id, seq DESC); by name, email, creation time.
CREATE INDEX customers_created_idx ON customers (environment_id, created_at, seq) WHERE archived_at IS NULL;
CREATE INDEX customers_name_idx ON customers (environment_id, name, seq) WHERE archived_at IS NULL;
CREATE INDEX customers_email_idx ON customers (environment_id, email, seq) WHERE archived_at IS NULL;

-- Orders: the API lists no PENDING order, and its own order puts orders never paid last. The id
-- is carried in the index (INCLUDE), so that a page picks its ten ids from the index alone,
-- without reading the rows it skips (a deferred join), and reads only the ten.
DROP INDEX orders_listing_idx;
CREATE INDEX orders_listing_idx ON orders (environment_id, paid_at DESC NULLS LAST, created_at DESC, seq DESC) INCLUDE (id) WHERE status <> 'PENDING';
CREATE INDEX orders_created_idx ON orders (environment_id, created_at, seq) INCLUDE (id) WHERE status <> 'PENDING';
CREATE INDEX orders_total_idx ON orders (environment_id, total_minor, seq) INCLUDE (id) WHERE status <> 'PENDING';

-- Invoices: listed newest issued first (the old index ordered by seq alone), by total, per customer;
-- the overview's failed payments.
DROP INDEX invoices_listing_idx;
CREATE INDEX invoices_listing_idx ON invoices (environment_id, issued_at DESC, seq DESC) INCLUDE (id);
CREATE INDEX invoices_total_idx ON invoices (environment_id, total_minor, seq) INCLUDE (id);
CREATE INDEX invoices_customer_idx ON invoices (customer_id);
CREATE INDEX invoices_failed_idx ON invoices (environment_id, modified_at DESC) WHERE status = 'PAYMENT_FAILED';

-- Subscriptions of every customer (until now they were listed per customer only): newest first,
-- in a status, of a plan (in a status), by period end.
CREATE INDEX subscriptions_created_idx ON subscriptions (environment_id, created_at, seq);
CREATE INDEX subscriptions_status_idx ON subscriptions (environment_id, status, created_at, seq);
CREATE INDEX subscriptions_plan_idx ON subscriptions (environment_id, plan_id, created_at, seq);
CREATE INDEX subscriptions_plan_status_idx ON subscriptions (environment_id, plan_id, status, created_at, seq);
CREATE INDEX subscriptions_period_end_idx ON subscriptions (environment_id, current_period_end, seq);

CREATE INDEX credit_notes_issued_idx ON credit_notes (environment_id, issued_at, seq);

-- The overview's revenue of a day and a month.
CREATE INDEX transactions_created_idx ON transactions (environment_id, created_at);

-- Searching anywhere in a name, email or customerId (ILIKE '%term%') uses trigram indexes
-- where the database offers pg_trgm (PostgreSQL's contrib, a trusted extension). Without it
-- (the embedded database, or a role that may not create it) the indexes are left out and
-- searches scan the environment's customers: the same answers, found more slowly.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    RETURN;
  END IF;
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm is not available (%): customer search runs without trigram indexes', SQLERRM;
    RETURN;
  END;
  CREATE INDEX customers_name_trgm_idx ON customers USING gin (name gin_trgm_ops);
  CREATE INDEX customers_email_trgm_idx ON customers USING gin (email gin_trgm_ops);
  CREATE INDEX customers_customer_id_trgm_idx ON customers USING gin (customer_id gin_trgm_ops);
END
$$;
