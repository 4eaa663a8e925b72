-- Cash and dunning analytics (issue 30; decision 0099): what each payment, refund and failed
-- invoice adds to the cash figures is appended to a log by row triggers, in the transaction
-- that writes the row, dated on the customer's clock (a charge or refund by its created_at,
-- a failed invoice by its issued_at: the day of its first attempt, which a test clock sets to
-- its simulated time). A change of a row appends what it takes away (the old row's share,
-- negated) and what it adds (the new row's). No row is shared between transactions: payments
-- never wait for each other here. The analytics job folds the log into one row per
-- environment, currency and seller's day (analytics_cash_days), the only rows a series reads.
CREATE TABLE analytics_cash_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  environment_id uuid NOT NULL,
  currency text NOT NULL,
  at timestamptz NOT NULL,
  collected_count integer NOT NULL DEFAULT 0,
  collected_minor bigint NOT NULL DEFAULT 0,
  refunded_count integer NOT NULL DEFAULT 0,
  refunded_minor bigint NOT NULL DEFAULT 0,
  failed_count integer NOT NULL DEFAULT 0,
  failed_minor bigint NOT NULL DEFAULT 0,
  recovered_count integer NOT NULL DEFAULT 0,
  recovered_minor bigint NOT NULL DEFAULT 0,
  lost_count integer NOT NULL DEFAULT 0,
  lost_minor bigint NOT NULL DEFAULT 0
);
CREATE INDEX analytics_cash_log_environment_idx ON analytics_cash_log (environment_id, at);

CREATE TABLE analytics_cash_days (
  environment_id uuid NOT NULL REFERENCES environments (id),
  currency text NOT NULL,
  day date NOT NULL,
  collected_count integer NOT NULL,
  collected_minor bigint NOT NULL,
  refunded_count integer NOT NULL,
  refunded_minor bigint NOT NULL,
  failed_count integer NOT NULL,
  failed_minor bigint NOT NULL,
  recovered_count integer NOT NULL,
  recovered_minor bigint NOT NULL,
  lost_count integer NOT NULL,
  lost_minor bigint NOT NULL,
  PRIMARY KEY (environment_id, day, currency)
);

-- A successful charge is collected, a successful refund (a negative amount) refunded.
CREATE FUNCTION billow_log_transaction_cash(t transactions, sign integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF t.status <> 'success' OR t.transaction_type NOT IN ('CHARGE', 'REFUND') THEN
    RETURN;
  END IF;
  INSERT INTO analytics_cash_log (environment_id, currency, at, collected_count, collected_minor, refunded_count, refunded_minor)
  VALUES (t.environment_id, t.currency, t.created_at,
          CASE WHEN t.transaction_type = 'CHARGE' THEN sign ELSE 0 END, CASE WHEN t.transaction_type = 'CHARGE' THEN sign * t.amount_minor ELSE 0 END,
          CASE WHEN t.transaction_type = 'REFUND' THEN sign ELSE 0 END, CASE WHEN t.transaction_type = 'REFUND' THEN -sign * t.amount_minor ELSE 0 END);
END;
$$;

-- An invoice with a failure on record failed on its first attempt (one that succeeds is the
-- last); paid since, it was recovered; unpaid with no attempt left, it was lost.
CREATE FUNCTION billow_log_invoice_cash(i invoices, sign integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  recovered boolean := i.status = 'PAID';
  lost boolean := i.status <> 'PAID' AND i.next_attempt_at IS NULL;
BEGIN
  IF i.failure_code IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO analytics_cash_log (environment_id, currency, at, failed_count, failed_minor, recovered_count, recovered_minor, lost_count, lost_minor)
  VALUES (i.environment_id, i.currency, i.issued_at, sign, sign * i.total_minor,
          CASE WHEN recovered THEN sign ELSE 0 END, CASE WHEN recovered THEN sign * i.total_minor ELSE 0 END,
          CASE WHEN lost THEN sign ELSE 0 END, CASE WHEN lost THEN sign * i.total_minor ELSE 0 END);
END;
$$;

CREATE FUNCTION billow_transaction_cash_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM billow_log_transaction_cash(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM billow_log_transaction_cash(NEW, 1);
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION billow_invoice_cash_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM billow_log_invoice_cash(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM billow_log_invoice_cash(NEW, 1);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER transactions_cash_insert_delete AFTER INSERT OR DELETE ON transactions
  FOR EACH ROW EXECUTE FUNCTION billow_transaction_cash_changed();
CREATE TRIGGER transactions_cash_update AFTER UPDATE ON transactions
  FOR EACH ROW
  WHEN ((OLD.environment_id, OLD.status, OLD.transaction_type, OLD.currency, OLD.amount_minor, OLD.created_at)
        IS DISTINCT FROM (NEW.environment_id, NEW.status, NEW.transaction_type, NEW.currency, NEW.amount_minor, NEW.created_at))
  EXECUTE FUNCTION billow_transaction_cash_changed();
CREATE TRIGGER invoices_cash_insert_delete AFTER INSERT OR DELETE ON invoices
  FOR EACH ROW EXECUTE FUNCTION billow_invoice_cash_changed();
-- A failed attempt that schedules another changes nothing counted here: only the columns the shares are read from.
CREATE TRIGGER invoices_cash_update AFTER UPDATE ON invoices
  FOR EACH ROW
  WHEN ((OLD.environment_id, OLD.status, OLD.failure_code IS NULL, OLD.next_attempt_at IS NULL, OLD.currency, OLD.total_minor, OLD.issued_at)
        IS DISTINCT FROM (NEW.environment_id, NEW.status, NEW.failure_code IS NULL, NEW.next_attempt_at IS NULL, NEW.currency, NEW.total_minor, NEW.issued_at))
  EXECUTE FUNCTION billow_invoice_cash_changed();

-- The payments, refunds and failed invoices there are already.
SELECT billow_log_transaction_cash(t, 1) FROM transactions t;
SELECT billow_log_invoice_cash(i, 1) FROM invoices i;
