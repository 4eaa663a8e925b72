-- Revenue analytics (issue 30; decision 0097). Every change of the terms a subscription's MRR
-- is priced from is logged, dated on the customer's clock (the row's modified_at, which a
-- test clock's advance sets to its simulated time), by deferred triggers: they run at the
-- commit of the transaction that made the change, see the subscription and its discount as
-- the transaction leaves them, and log a row only when the priced terms differ from the
-- subscription's last logged ones. A job prices the log in order (modules/analytics).
CREATE TABLE subscription_terms_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  subscription_id uuid NOT NULL,
  customer_id uuid NOT NULL,
  -- The transaction that made the change: its changes of one customer are one movement (a plan
  -- change ends one subscription and starts another: an expansion, not a churn and a return).
  tx bigint NOT NULL,
  at timestamptz NOT NULL,
  -- Active or past_due, and recurring: only then has it an MRR.
  counts boolean NOT NULL,
  currency text NOT NULL,
  charge_period text NOT NULL,
  price_id uuid NOT NULL,
  quantities jsonb NOT NULL,
  custom_amount_minor bigint,
  custom_tax_behavior text,
  promotion_percent integer,
  discount_type text,
  percent_off_bp integer,
  discount_amount_minor bigint,
  tax_rate_bp integer NOT NULL,
  priced boolean NOT NULL DEFAULT false
);
CREATE INDEX subscription_terms_log_subscription_idx ON subscription_terms_log (subscription_id, id);
CREATE INDEX subscription_terms_log_unpriced_idx ON subscription_terms_log (id) WHERE NOT priced;
CREATE INDEX subscription_terms_log_environment_idx ON subscription_terms_log (environment_id, id);

CREATE FUNCTION billow_log_subscription_terms(target uuid, known_since timestamptz DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  now_terms subscription_terms_log%ROWTYPE;
  last_terms subscription_terms_log%ROWTYPE;
BEGIN
  SELECT NULL, s.environment_id, s.id, s.customer_id, txid_current(), coalesce(known_since, s.modified_at),
         s.status IN ('active', 'past_due') AND s.charge_period <> 'ONE_TIME',
         s.currency, s.charge_period, s.price_id, s.quantities, s.custom_amount_minor, s.custom_tax_behavior, s.promotion_percent,
         d.discount_type, d.percent_off_bp, da.amount_minor,
         CASE WHEN s.custom_tax_behavior = 'INCLUSIVE' OR (s.custom_tax_behavior IS NULL AND p.tax_behavior = 'INCLUSIVE')
              THEN coalesce((SELECT o.tax_rate_bp FROM orders o WHERE o.subscription_id = s.id ORDER BY o.created_at DESC LIMIT 1), 0)
              ELSE 0 END,
         false
    INTO now_terms
    FROM subscriptions s
    JOIN plan_prices p ON p.id = s.price_id
    LEFT JOIN subscription_discounts sd ON sd.subscription_id = s.id AND (sd.cycles_remaining IS NULL OR sd.cycles_remaining > 0)
    LEFT JOIN discounts d ON d.id = sd.discount_id
    LEFT JOIN discount_amounts da ON da.discount_id = d.id AND da.currency = s.currency
   WHERE s.id = target;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT * INTO last_terms FROM subscription_terms_log WHERE subscription_id = target ORDER BY id DESC LIMIT 1;
  IF NOT FOUND THEN
    IF NOT now_terms.counts THEN
      RETURN;
    END IF;
  ELSIF NOT now_terms.counts AND NOT last_terms.counts THEN
    RETURN;
  ELSIF (now_terms.counts, now_terms.currency, now_terms.charge_period, now_terms.price_id, now_terms.quantities,
         now_terms.custom_amount_minor, now_terms.custom_tax_behavior, now_terms.promotion_percent,
         now_terms.discount_type, now_terms.percent_off_bp, now_terms.discount_amount_minor, now_terms.tax_rate_bp)
        IS NOT DISTINCT FROM
        (last_terms.counts, last_terms.currency, last_terms.charge_period, last_terms.price_id, last_terms.quantities,
         last_terms.custom_amount_minor, last_terms.custom_tax_behavior, last_terms.promotion_percent,
         last_terms.discount_type, last_terms.percent_off_bp, last_terms.discount_amount_minor, last_terms.tax_rate_bp) THEN
    RETURN;
  END IF;
  INSERT INTO subscription_terms_log (environment_id, subscription_id, customer_id, tx, at, counts, currency, charge_period, price_id, quantities,
                                      custom_amount_minor, custom_tax_behavior, promotion_percent, discount_type, percent_off_bp,
                                      discount_amount_minor, tax_rate_bp)
  VALUES (now_terms.environment_id, now_terms.subscription_id, now_terms.customer_id, now_terms.tx, now_terms.at, now_terms.counts, now_terms.currency,
          now_terms.charge_period, now_terms.price_id, now_terms.quantities, now_terms.custom_amount_minor, now_terms.custom_tax_behavior,
          now_terms.promotion_percent, now_terms.discount_type, now_terms.percent_off_bp, now_terms.discount_amount_minor, now_terms.tax_rate_bp);
END;
$$;

CREATE FUNCTION billow_subscription_terms_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM billow_log_subscription_terms(NEW.id);
  RETURN NULL;
END;
$$;

CREATE FUNCTION billow_subscription_discount_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM billow_log_subscription_terms(OLD.subscription_id);
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.subscription_id IS DISTINCT FROM OLD.subscription_id) THEN
    PERFORM billow_log_subscription_terms(NEW.subscription_id);
  END IF;
  RETURN NULL;
END;
$$;

-- A renewal moves only dates: these columns, and so the trigger, stay still.
CREATE CONSTRAINT TRIGGER subscriptions_terms_log_insert AFTER INSERT ON subscriptions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION billow_subscription_terms_changed();
CREATE CONSTRAINT TRIGGER subscriptions_terms_log_update AFTER UPDATE ON subscriptions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.status, OLD.currency, OLD.charge_period, OLD.price_id, OLD.quantities, OLD.custom_amount_minor, OLD.custom_tax_behavior, OLD.promotion_percent)
        IS DISTINCT FROM
        (NEW.status, NEW.currency, NEW.charge_period, NEW.price_id, NEW.quantities, NEW.custom_amount_minor, NEW.custom_tax_behavior, NEW.promotion_percent))
  EXECUTE FUNCTION billow_subscription_terms_changed();
-- A discount starts, moves to the subscription of a plan change, or runs out of renewals.
CREATE CONSTRAINT TRIGGER subscription_discounts_terms_log_insert AFTER INSERT OR DELETE ON subscription_discounts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION billow_subscription_discount_changed();
CREATE CONSTRAINT TRIGGER subscription_discounts_terms_log_update AFTER UPDATE ON subscription_discounts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.subscription_id IS DISTINCT FROM NEW.subscription_id
        OR (OLD.cycles_remaining IS NULL OR OLD.cycles_remaining > 0) IS DISTINCT FROM (NEW.cycles_remaining IS NULL OR NEW.cycles_remaining > 0))
  EXECUTE FUNCTION billow_subscription_discount_changed();

-- What the subscriptions there are already stand at, as if they had stood so since they
-- started: what changed or left before this migration is not known.
SELECT billow_log_subscription_terms(id, start_date) FROM subscriptions WHERE status IN ('active', 'past_due') AND charge_period <> 'ONE_TIME';

-- Each subscription's and each customer's MRR as the log was last priced, in 336ths of a minor unit.
CREATE TABLE analytics_subscription_mrr (
  subscription_id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  customer_id uuid NOT NULL,
  currency text NOT NULL,
  parts numeric NOT NULL
);
CREATE TABLE analytics_customer_mrr (
  environment_id uuid NOT NULL REFERENCES environments (id),
  customer_id uuid NOT NULL,
  currency text NOT NULL,
  parts numeric NOT NULL,
  ever_paid boolean NOT NULL,
  PRIMARY KEY (customer_id, currency)
);

-- The movements: one row per change of a customer's MRR in a currency, on the day (in the
-- seller's time zone) and at the time of the customer's clock it happened.
CREATE TABLE analytics_mrr_movements (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  customer_id uuid NOT NULL,
  subscription_id uuid NOT NULL,
  currency text NOT NULL,
  at timestamptz NOT NULL,
  day date NOT NULL,
  kind text NOT NULL,
  parts numeric NOT NULL,
  customer_parts numeric NOT NULL,
  log_id bigint NOT NULL
);
CREATE INDEX analytics_mrr_movements_day_idx ON analytics_mrr_movements (environment_id, day);
