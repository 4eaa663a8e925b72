-- The billing engine (decision 0029): renewals, trial ends, dunning and scheduled
-- cancellations happen when their time comes, by the real clock or a test clock's.

-- Periods are counted from an anchor, so that a subscription started on the 31st
-- renews on the last day of shorter months and on the 31st again after them.
ALTER TABLE subscriptions ADD COLUMN billing_anchor timestamptz;
UPDATE subscriptions SET billing_anchor = COALESCE(trial_end, current_period_start) WHERE billing_anchor IS NULL;
CREATE INDEX subscriptions_trial_due_idx ON subscriptions (trial_end) WHERE status = 'trialing';
CREATE INDEX subscriptions_end_due_idx ON subscriptions (end_date)
  WHERE end_date IS NOT NULL AND status IN ('active', 'trialing', 'past_due');

-- A renewal's invoice bills one period of one subscription: at most one invoice per
-- period, whatever runs the renewal and however often.
ALTER TABLE invoices ADD COLUMN subscription_id uuid REFERENCES subscriptions (id);
ALTER TABLE invoices ADD COLUMN period_start timestamptz;
ALTER TABLE invoices ADD COLUMN period_end timestamptz;
-- Dunning: the attempts made to collect an unpaid invoice, and when the next one is due.
ALTER TABLE invoices ADD COLUMN attempt_count integer NOT NULL DEFAULT 0;
ALTER TABLE invoices ADD COLUMN next_attempt_at timestamptz;
ALTER TABLE invoices ADD COLUMN failure_code text;
ALTER TABLE invoices ADD COLUMN failure_message text;
-- The method of the last attempt: a hard decline is not tried again on the same method.
ALTER TABLE invoices ADD COLUMN last_method_id bigint REFERENCES payment_methods (id);
CREATE UNIQUE INDEX invoices_one_per_period ON invoices (subscription_id, period_start)
  WHERE subscription_id IS NOT NULL AND period_start IS NOT NULL;
CREATE INDEX invoices_attempt_due_idx ON invoices (next_attempt_at)
  WHERE next_attempt_at IS NOT NULL AND status IN ('OPEN', 'PAYMENT_FAILED');
CREATE INDEX invoices_subscription_idx ON invoices (subscription_id) WHERE subscription_id IS NOT NULL;

ALTER TABLE payment_intents DROP CONSTRAINT payment_intents_kind_check;
ALTER TABLE payment_intents ADD CONSTRAINT payment_intents_kind_check
  CHECK (kind IN ('charge', 'subscription_create', 'subscription_update', 'renewal', 'invoice_payment'));

-- Test clocks (sandbox only): a customer attached to one lives on its time.
CREATE TABLE test_clocks (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  name text,
  frozen_time timestamptz NOT NULL,
  -- Where an advance is heading; equal to frozen_time when ready.
  target_time timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('ready', 'advancing', 'internal_failure')),
  failure text,
  created_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX test_clocks_listing_idx ON test_clocks (environment_id, seq DESC) WHERE deleted_at IS NULL;
ALTER TABLE customers ADD COLUMN test_clock_id text REFERENCES test_clocks (id);
CREATE INDEX customers_test_clock_idx ON customers (test_clock_id) WHERE test_clock_id IS NOT NULL;
