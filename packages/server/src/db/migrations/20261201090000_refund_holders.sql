-- The process that recorded a refund and is asking the provider for it (decision 0051): a refund still
-- processing whose holder is gone is completed by the recovery task at once, not after a minute.
ALTER TABLE refunds ADD COLUMN holder integer;
