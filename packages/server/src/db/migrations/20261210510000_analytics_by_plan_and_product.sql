-- MRR by plan and by product (issue 30; decision 0106). Beside the book of the whole business,
-- the analytics job keeps a book of each plan and of each product: each subscription's MRR in
-- its plan's and its product's book, each customer's MRR per plan and per product, and their
-- movements. `dimension` says which book a row belongs to ('all', 'plan', 'product') and
-- `segment` the plan's or the product's identifier ('' for the whole business).
--
-- What was kept before is forgotten and the whole log is priced again by the job, so that the
-- three books, and the subscriber figures priced beside them, start from the same history.
DELETE FROM analytics_mrr_movements;
DELETE FROM analytics_customer_mrr;
DELETE FROM analytics_subscription_mrr;
DELETE FROM analytics_subscription_events;
DELETE FROM analytics_subscription_states;
UPDATE subscription_terms_log SET priced = false WHERE priced;

ALTER TABLE analytics_subscription_mrr ADD COLUMN dimension text NOT NULL DEFAULT 'all';
ALTER TABLE analytics_subscription_mrr ADD COLUMN segment text NOT NULL DEFAULT '';
ALTER TABLE analytics_subscription_mrr DROP CONSTRAINT analytics_subscription_mrr_pkey;
ALTER TABLE analytics_subscription_mrr ADD PRIMARY KEY (subscription_id, dimension);

ALTER TABLE analytics_customer_mrr ADD COLUMN dimension text NOT NULL DEFAULT 'all';
ALTER TABLE analytics_customer_mrr ADD COLUMN segment text NOT NULL DEFAULT '';
ALTER TABLE analytics_customer_mrr DROP CONSTRAINT analytics_customer_mrr_pkey;
ALTER TABLE analytics_customer_mrr ADD PRIMARY KEY (customer_id, currency, dimension, segment);

ALTER TABLE analytics_mrr_movements ADD COLUMN dimension text NOT NULL DEFAULT 'all';
ALTER TABLE analytics_mrr_movements ADD COLUMN segment text NOT NULL DEFAULT '';
DROP INDEX analytics_mrr_movements_day_idx;
CREATE INDEX analytics_mrr_movements_day_idx ON analytics_mrr_movements (environment_id, dimension, segment, day);
