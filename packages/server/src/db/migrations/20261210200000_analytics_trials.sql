-- Subscribers and trials (issue 30; decision 0101). The terms log learns two more things: whether
-- the subscription is in its trial (a trialing subscription has no MRR, so the log left it out
-- until its first paid period), and which subscription it follows (a plan change supersedes one
-- subscription with another: a trial that goes on in the successor has not ended).
ALTER TABLE subscription_terms_log ADD COLUMN trialing boolean NOT NULL DEFAULT false;
ALTER TABLE subscription_terms_log ADD COLUMN previous_subscription_id uuid;
UPDATE subscription_terms_log l SET previous_subscription_id = s.previous_subscription_id
  FROM subscriptions s WHERE s.id = l.subscription_id AND s.previous_subscription_id IS NOT NULL;

-- As 20261209100000's, and a trial is logged too: its start, and the change that ends it.
CREATE OR REPLACE FUNCTION billow_log_subscription_terms(target uuid, known_since timestamptz DEFAULT NULL) RETURNS void
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
         false,
         s.status = 'trialing',
         s.previous_subscription_id
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
    IF NOT now_terms.counts AND NOT now_terms.trialing THEN
      RETURN;
    END IF;
  ELSIF NOT now_terms.counts AND NOT now_terms.trialing AND NOT last_terms.counts AND NOT last_terms.trialing THEN
    RETURN;
  ELSIF (now_terms.counts, now_terms.trialing, now_terms.currency, now_terms.charge_period, now_terms.price_id, now_terms.quantities,
         now_terms.custom_amount_minor, now_terms.custom_tax_behavior, now_terms.promotion_percent,
         now_terms.discount_type, now_terms.percent_off_bp, now_terms.discount_amount_minor, now_terms.tax_rate_bp)
        IS NOT DISTINCT FROM
        (last_terms.counts, last_terms.trialing, last_terms.currency, last_terms.charge_period, last_terms.price_id, last_terms.quantities,
         last_terms.custom_amount_minor, last_terms.custom_tax_behavior, last_terms.promotion_percent,
         last_terms.discount_type, last_terms.percent_off_bp, last_terms.discount_amount_minor, last_terms.tax_rate_bp) THEN
    RETURN;
  END IF;
  INSERT INTO subscription_terms_log (environment_id, subscription_id, customer_id, tx, at, counts, currency, charge_period, price_id, quantities,
                                      custom_amount_minor, custom_tax_behavior, promotion_percent, discount_type, percent_off_bp,
                                      discount_amount_minor, tax_rate_bp, trialing, previous_subscription_id)
  VALUES (now_terms.environment_id, now_terms.subscription_id, now_terms.customer_id, now_terms.tx, now_terms.at, now_terms.counts, now_terms.currency,
          now_terms.charge_period, now_terms.price_id, now_terms.quantities, now_terms.custom_amount_minor, now_terms.custom_tax_behavior,
          now_terms.promotion_percent, now_terms.discount_type, now_terms.percent_off_bp, now_terms.discount_amount_minor, now_terms.tax_rate_bp,
          now_terms.trialing, now_terms.previous_subscription_id);
END;
$$;

-- Each subscription's standing as the log was last priced: whether it had an MRR above 0
-- (an active subscription) and whether it was in its trial.
CREATE TABLE analytics_subscription_states (
  subscription_id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  customer_id uuid NOT NULL,
  currency text NOT NULL,
  active boolean NOT NULL,
  trialing boolean NOT NULL
);

-- What changed the subscriber counts: a subscription became active or stopped being so, a trial
-- started, converted (its first paid period began) or lapsed (it ended otherwise), on the
-- seller's day and at the time of the customer's clock.
CREATE TABLE analytics_subscription_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  subscription_id uuid NOT NULL,
  customer_id uuid NOT NULL,
  currency text NOT NULL,
  at timestamptz NOT NULL,
  day date NOT NULL,
  kind text NOT NULL,
  log_id bigint NOT NULL
);
CREATE INDEX analytics_subscription_events_day_idx ON analytics_subscription_events (environment_id, day);

-- The subscriptions in their trial now, as if they had been logged when they started; then the
-- whole log is priced again, so that the subscriber figures and the movements come from the
-- same pass (the job does it in its next runs; a series catches its environment up first).
SELECT billow_log_subscription_terms(id, start_date) FROM subscriptions WHERE status = 'trialing';
DELETE FROM analytics_mrr_movements;
DELETE FROM analytics_customer_mrr;
DELETE FROM analytics_subscription_mrr;
UPDATE subscription_terms_log SET priced = false WHERE priced;
