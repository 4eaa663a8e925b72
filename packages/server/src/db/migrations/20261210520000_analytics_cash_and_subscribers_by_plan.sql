-- Cash, subscribers and trials by plan and by product (issue 30; decision 0107), beside the
-- MRR books of decision 0106.
--
-- Cash: each log row names the order its payment, refund or failed invoice belongs to (a
-- renewal's, a plan change's or a one-time purchase's: every order names its plan and
-- product). The job folds a row into three day rows: the whole business's, its order's plan's
-- and its order's product's (`dimension`, `segment` as in 0106). The log and the days are
-- written again from the raw tables here, so that every day has its plans and products.
ALTER TABLE analytics_cash_log ADD COLUMN order_id text;

ALTER TABLE analytics_cash_days ADD COLUMN dimension text NOT NULL DEFAULT 'all';
ALTER TABLE analytics_cash_days ADD COLUMN segment text NOT NULL DEFAULT '';
ALTER TABLE analytics_cash_days DROP CONSTRAINT analytics_cash_days_pkey;
ALTER TABLE analytics_cash_days ADD PRIMARY KEY (environment_id, dimension, segment, day, currency);

CREATE OR REPLACE FUNCTION billow_log_transaction_cash(t transactions, sign integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF t.status <> 'success' OR t.transaction_type NOT IN ('CHARGE', 'REFUND') THEN
    RETURN;
  END IF;
  INSERT INTO analytics_cash_log (environment_id, order_id, currency, at, collected_count, collected_minor, refunded_count, refunded_minor)
  VALUES (t.environment_id, t.order_id, t.currency, t.created_at,
          CASE WHEN t.transaction_type = 'CHARGE' THEN sign ELSE 0 END, CASE WHEN t.transaction_type = 'CHARGE' THEN sign * t.amount_minor ELSE 0 END,
          CASE WHEN t.transaction_type = 'REFUND' THEN sign ELSE 0 END, CASE WHEN t.transaction_type = 'REFUND' THEN -sign * t.amount_minor ELSE 0 END);
END;
$$;

CREATE OR REPLACE FUNCTION billow_log_invoice_cash(i invoices, sign integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  recovered boolean := i.status = 'PAID';
  lost boolean := i.status <> 'PAID' AND i.next_attempt_at IS NULL;
BEGIN
  IF i.failure_code IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO analytics_cash_log (environment_id, order_id, currency, at, failed_count, failed_minor, recovered_count, recovered_minor, lost_count, lost_minor)
  VALUES (i.environment_id, i.order_id, i.currency, i.issued_at, sign, sign * i.total_minor,
          CASE WHEN recovered THEN sign ELSE 0 END, CASE WHEN recovered THEN sign * i.total_minor ELSE 0 END,
          CASE WHEN lost THEN sign ELSE 0 END, CASE WHEN lost THEN sign * i.total_minor ELSE 0 END);
END;
$$;

-- A change of an invoice's or a payment's order moves its figures from one plan to another.
DROP TRIGGER transactions_cash_update ON transactions;
CREATE TRIGGER transactions_cash_update AFTER UPDATE ON transactions
  FOR EACH ROW
  WHEN ((OLD.environment_id, OLD.order_id, OLD.status, OLD.transaction_type, OLD.currency, OLD.amount_minor, OLD.created_at)
        IS DISTINCT FROM (NEW.environment_id, NEW.order_id, NEW.status, NEW.transaction_type, NEW.currency, NEW.amount_minor, NEW.created_at))
  EXECUTE FUNCTION billow_transaction_cash_changed();
DROP TRIGGER invoices_cash_update ON invoices;
CREATE TRIGGER invoices_cash_update AFTER UPDATE ON invoices
  FOR EACH ROW
  WHEN ((OLD.environment_id, OLD.order_id, OLD.status, OLD.failure_code IS NULL, OLD.next_attempt_at IS NULL, OLD.currency, OLD.total_minor, OLD.issued_at)
        IS DISTINCT FROM (NEW.environment_id, NEW.order_id, NEW.status, NEW.failure_code IS NULL, NEW.next_attempt_at IS NULL, NEW.currency, NEW.total_minor, NEW.issued_at))
  EXECUTE FUNCTION billow_invoice_cash_changed();

DELETE FROM analytics_cash_log;
DELETE FROM analytics_cash_days;
SELECT billow_log_transaction_cash(t, 1) FROM transactions t;
SELECT billow_log_invoice_cash(i, 1) FROM invoices i;

-- Subscribers and trials: each subscription's standing and the events that change the counts
-- are kept in each book too. What was kept is forgotten and the whole log priced again by the
-- job (as in 0106), so that the three MRR books and the three subscriber books start together.
DELETE FROM analytics_mrr_movements;
DELETE FROM analytics_customer_mrr;
DELETE FROM analytics_subscription_mrr;
DELETE FROM analytics_subscription_events;
DELETE FROM analytics_subscription_states;
UPDATE subscription_terms_log SET priced = false WHERE priced;

ALTER TABLE analytics_subscription_states ADD COLUMN dimension text NOT NULL DEFAULT 'all';
ALTER TABLE analytics_subscription_states ADD COLUMN segment text NOT NULL DEFAULT '';
ALTER TABLE analytics_subscription_states DROP CONSTRAINT analytics_subscription_states_pkey;
ALTER TABLE analytics_subscription_states ADD PRIMARY KEY (subscription_id, dimension);

ALTER TABLE analytics_subscription_events ADD COLUMN dimension text NOT NULL DEFAULT 'all';
ALTER TABLE analytics_subscription_events ADD COLUMN segment text NOT NULL DEFAULT '';
DROP INDEX analytics_subscription_events_day_idx;
CREATE INDEX analytics_subscription_events_day_idx ON analytics_subscription_events (environment_id, dimension, segment, day);
