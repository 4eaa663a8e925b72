-- Every usage report of an environment named the same environment row, and every report of a
-- meter the same feature row, as foreign keys: each insert took a KEY SHARE lock on those few hot
-- rows, and a batch of 1,000 reports spent most of its database time there (decision 0043).
-- Environments and features are never deleted (they are archived), and the report writer takes
-- both ids from the customer's subscription route, so the two checks guarded nothing real.
-- The keys to the customer and the subscription stay.
ALTER TABLE usage_reports
  DROP CONSTRAINT IF EXISTS usage_reports_environment_id_fkey,
  DROP CONSTRAINT IF EXISTS usage_reports_feature_id_fkey;
