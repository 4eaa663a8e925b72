-- Location pricing at checkout and prices that recur (decision 0036).

-- What a subscription keeps of its purchase for its renewals: a checkout's customAmount
-- (the period's amount and its tax behaviour) and the promotion's percentage it was sold at.
ALTER TABLE subscriptions
  ADD COLUMN custom_amount_minor bigint CHECK (custom_amount_minor > 0),
  ADD COLUMN custom_tax_behavior text CHECK (custom_tax_behavior IN ('INCLUSIVE', 'EXCLUSIVE')),
  ADD COLUMN promotion_id uuid,
  ADD COLUMN promotion_percent integer CHECK (promotion_percent BETWEEN 1 AND 100);

-- Whether the session's ipAddress locates the buyer for promotions (a server key's, or the
-- address a buy link was requested from), and the promotion decided when the buyer paid.
ALTER TABLE checkout_sessions
  ADD COLUMN ip_trusted boolean NOT NULL DEFAULT false,
  ADD COLUMN promotion_id uuid,
  ADD COLUMN promotion_percent integer CHECK (promotion_percent BETWEEN 1 AND 100);

CREATE INDEX promotions_live_of_product_idx ON promotions (environment_id, product_id) WHERE archived_at IS NULL AND enabled;
