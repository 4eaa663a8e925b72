-- The last two foreign keys of usage_reports, to the customer and the subscription, go the way of
-- the environment's and the feature's (20261128110000, decision 0043): each report's insert ran
-- two referential checks, each a SELECT ... FOR KEY SHARE that locks the parent row, which doubled
-- the database's time per report (20,000 reports: 527 to 612 ms with them, 231 to 276 ms without,
-- on the 2-core machine of 2026-11-26), and concurrent batches over the same customers shared
-- those locks as multixacts. Customers and subscriptions are never deleted (archived, ended), and
-- every writer takes both ids from the customer's state or route read from the database, so the
-- checks guarded nothing real (decision 0046).
ALTER TABLE usage_reports
  DROP CONSTRAINT IF EXISTS usage_reports_customer_id_fkey,
  DROP CONSTRAINT IF EXISTS usage_reports_subscription_id_fkey;
