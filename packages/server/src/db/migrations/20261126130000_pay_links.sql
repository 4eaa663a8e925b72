-- Pay links (issue 13, decision 0035): the hosted checkout page also takes the payment an
-- activate_on_payment change waits for, and the payment of an unpaid renewal invoice.
-- `purpose` says what a session pays; `change_request` is the update a change session
-- activates; `target_id` is the pending subscription or the invoice it pays.
ALTER TABLE checkout_sessions ADD COLUMN purpose text NOT NULL DEFAULT 'purchase'
  CHECK (purpose IN ('purchase', 'subscription_change', 'invoice'));
ALTER TABLE checkout_sessions ADD COLUMN target_id text;
ALTER TABLE checkout_sessions ADD COLUMN change_request jsonb;
ALTER TABLE checkout_sessions DROP CONSTRAINT checkout_sessions_created_via_check;
ALTER TABLE checkout_sessions ADD CONSTRAINT checkout_sessions_created_via_check
  CHECK (created_via IN ('api', 'buy_link', 'subscription_update', 'payment_link'));
-- The page of an invoice's payment link reuses the invoice's open session.
CREATE INDEX checkout_sessions_target_idx ON checkout_sessions (target_id) WHERE target_id IS NOT NULL;

-- An unpaid invoice's payment link (`/pay/{pay_token}/`): random, unguessable, one invoice's.
ALTER TABLE invoices ADD COLUMN pay_token text;
CREATE UNIQUE INDEX invoices_pay_token_idx ON invoices (pay_token) WHERE pay_token IS NOT NULL;
