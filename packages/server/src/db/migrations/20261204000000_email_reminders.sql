-- Dunning, cancellation and reminder emails (issue 28, item 1; decisions 0070, 0071).

-- The email of a subscription that reached its scheduled end keeps its switch under a name
-- that says so; `subscription_cancelled` now switches the email of a cancellation that takes
-- effect at once. Messages already written keep their meaning under the new kind's name.
ALTER TABLE email_settings RENAME COLUMN subscription_cancelled TO subscription_ended;
UPDATE mail_messages SET kind = 'subscription_ended' WHERE kind = 'subscription_cancelled';

ALTER TABLE email_settings
  ADD COLUMN payment_retry_failed boolean NOT NULL DEFAULT true,
  ADD COLUMN cancelled_unpaid boolean NOT NULL DEFAULT true,
  ADD COLUMN subscription_cancelled boolean NOT NULL DEFAULT true,
  ADD COLUMN cancellation_scheduled boolean NOT NULL DEFAULT true,
  ADD COLUMN trial_ending boolean NOT NULL DEFAULT true,
  ADD COLUMN upcoming_renewal boolean NOT NULL DEFAULT true,
  ADD COLUMN card_expiring boolean NOT NULL DEFAULT true,
  -- How many days before what they announce the timed reminders are sent.
  ADD COLUMN trial_ending_days integer NOT NULL DEFAULT 3 CHECK (trial_ending_days BETWEEN 1 AND 30),
  ADD COLUMN upcoming_renewal_days integer NOT NULL DEFAULT 7 CHECK (upcoming_renewal_days BETWEEN 1 AND 90),
  ADD COLUMN card_expiring_days integer NOT NULL DEFAULT 30 CHECK (card_expiring_days BETWEEN 1 AND 90);

-- A reminder announces something that time brings to a subscription (its trial's end, its
-- renewal, a card that will not last until the renewal). One row per (subscription, kind,
-- occasion: the instant announced), written with the job that composes its email, in one
-- transaction, at the instant the reminder fell due by the subscription's clock (a test
-- clock's when its customer has one): never twice, and never without its job. `facts` is
-- what the email says, as it stood at that instant.
CREATE TABLE mail_reminders (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  environment_id uuid NOT NULL REFERENCES environments (id),
  subscription_id uuid NOT NULL REFERENCES subscriptions (id),
  kind text NOT NULL CHECK (kind IN ('trial_ending', 'upcoming_renewal', 'card_expiring')),
  occasion timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  facts jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (subscription_id, kind, occasion)
);

-- A reminder's message, once however often its job runs; and when what a message tells
-- happened by the environment's clock (a test clock's simulated instant).
ALTER TABLE mail_messages ADD COLUMN reminder_id uuid;
ALTER TABLE mail_messages ADD COLUMN occurred_at timestamptz;
CREATE UNIQUE INDEX mail_messages_reminder ON mail_messages (reminder_id) WHERE reminder_id IS NOT NULL;
