-- The Home page's MRR at scale (issue 29, item 4; decision 0090): how many recurring live
-- subscriptions (active or past_due, not ONE_TIME) the environment has on each set of the
-- terms on the subscription row that a renewal is priced from. Kept by statement triggers
-- on subscriptions, in the transaction of the change, as signed counts appended per
-- statement (+1 for a row that starts counting or changes terms, -1 for one that stops or
-- leaves them): a change never updates a shared row, so concurrent purchases neither wait
-- for each other here nor deadlock. The overview sums the counts per terms and folds the
-- appended rows into one per terms now and then (modules/overview/repo.ts). A renewal,
-- which changes only dates, appends nothing: its -1 and +1 cancel out within the statement.
CREATE TABLE subscription_mrr_terms (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  currency text NOT NULL,
  charge_period text NOT NULL,
  price_id uuid NOT NULL,
  quantities jsonb NOT NULL,
  custom_amount_minor bigint,
  custom_tax_behavior text,
  promotion_percent integer,
  n integer NOT NULL
);
CREATE INDEX subscription_mrr_terms_environment_idx ON subscription_mrr_terms (environment_id);

CREATE FUNCTION billow_subscription_mrr_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO subscription_mrr_terms (environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent, n)
    SELECT environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent, count(*)
      FROM new_rows
     WHERE status IN ('active', 'past_due') AND charge_period <> 'ONE_TIME'
     GROUP BY environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO subscription_mrr_terms (environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent, n)
    SELECT environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent, -count(*)
      FROM old_rows
     WHERE status IN ('active', 'past_due') AND charge_period <> 'ONE_TIME'
     GROUP BY environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent;
  ELSE
    INSERT INTO subscription_mrr_terms (environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent, n)
    SELECT environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent, sum(n)
      FROM (SELECT environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent, 1 AS n
              FROM new_rows WHERE status IN ('active', 'past_due') AND charge_period <> 'ONE_TIME'
            UNION ALL
            SELECT environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent, -1 AS n
              FROM old_rows WHERE status IN ('active', 'past_due') AND charge_period <> 'ONE_TIME') AS changed
     GROUP BY environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent
    HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER subscriptions_mrr_terms_insert AFTER INSERT ON subscriptions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION billow_subscription_mrr_terms();
CREATE TRIGGER subscriptions_mrr_terms_update AFTER UPDATE ON subscriptions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION billow_subscription_mrr_terms();
CREATE TRIGGER subscriptions_mrr_terms_delete AFTER DELETE ON subscriptions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION billow_subscription_mrr_terms();

-- The subscriptions there are already.
INSERT INTO subscription_mrr_terms (environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent, n)
SELECT environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent, count(*)
  FROM subscriptions
 WHERE status IN ('active', 'past_due') AND charge_period <> 'ONE_TIME'
 GROUP BY environment_id, currency, charge_period, price_id, quantities, custom_amount_minor, custom_tax_behavior, promotion_percent;
