-- Usage in MRR (issue 30; decisions 0097 and 0105). A subscription's pay-as-you-go usage counts
-- in its MRR at what its last closed period used: the usage lines of its newest invoice (the
-- renewal that billed the period in arrears), kept in the log as the quantity of each feature
-- and priced, like the rest of the terms, at the subscription's price. A new invoice logs a
-- row when that usage differs from the last logged one, at the invoice's time (the customer's
-- clock); a period in which nothing was used counts nothing.
ALTER TABLE subscription_terms_log ADD COLUMN usage jsonb NOT NULL DEFAULT '{}'::jsonb;

-- As 20261210200000's, with the usage of the newest invoice among the terms.
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
         s.previous_subscription_id,
         coalesce((SELECT jsonb_object_agg(line ->> 'featureId', (line ->> 'quantity')::bigint)
                     FROM jsonb_array_elements((SELECT i.lines FROM invoices i WHERE i.subscription_id = s.id ORDER BY i.seq DESC LIMIT 1)) AS line
                    WHERE line ->> 'kind' = 'usage' AND line ->> 'featureId' IS NOT NULL), '{}'::jsonb)
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
         now_terms.discount_type, now_terms.percent_off_bp, now_terms.discount_amount_minor, now_terms.tax_rate_bp, now_terms.usage)
        IS NOT DISTINCT FROM
        (last_terms.counts, last_terms.trialing, last_terms.currency, last_terms.charge_period, last_terms.price_id, last_terms.quantities,
         last_terms.custom_amount_minor, last_terms.custom_tax_behavior, last_terms.promotion_percent,
         last_terms.discount_type, last_terms.percent_off_bp, last_terms.discount_amount_minor, last_terms.tax_rate_bp, last_terms.usage) THEN
    RETURN;
  END IF;
  INSERT INTO subscription_terms_log (environment_id, subscription_id, customer_id, tx, at, counts, currency, charge_period, price_id, quantities,
                                      custom_amount_minor, custom_tax_behavior, promotion_percent, discount_type, percent_off_bp,
                                      discount_amount_minor, tax_rate_bp, trialing, previous_subscription_id, usage)
  VALUES (now_terms.environment_id, now_terms.subscription_id, now_terms.customer_id, now_terms.tx, now_terms.at, now_terms.counts, now_terms.currency,
          now_terms.charge_period, now_terms.price_id, now_terms.quantities, now_terms.custom_amount_minor, now_terms.custom_tax_behavior,
          now_terms.promotion_percent, now_terms.discount_type, now_terms.percent_off_bp, now_terms.discount_amount_minor, now_terms.tax_rate_bp,
          now_terms.trialing, now_terms.previous_subscription_id,
          now_terms.usage);
END;
$$;

CREATE FUNCTION billow_invoice_usage_logged() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM billow_log_subscription_terms(NEW.subscription_id, NEW.issued_at);
  RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER invoices_terms_log_insert AFTER INSERT ON invoices
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.subscription_id IS NOT NULL)
  EXECUTE FUNCTION billow_invoice_usage_logged();
