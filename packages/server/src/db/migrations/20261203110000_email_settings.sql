-- Which emails buyers get, per environment (issue 28, decision 0067). No row: every kind on.
CREATE TABLE email_settings (
  environment_id uuid PRIMARY KEY REFERENCES environments (id),
  receipt boolean NOT NULL DEFAULT true,
  refund boolean NOT NULL DEFAULT true,
  payment_failed boolean NOT NULL DEFAULT true,
  subscription_cancelled boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL
);
