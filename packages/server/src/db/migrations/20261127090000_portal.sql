-- Customer portal (issue 14, decision 0037). A session is what `POST /portal/session/` (or a
-- verified sign-in) opens for one customer of one environment: the link's token is
-- `cpt-<id>:<secret>`; only a SHA-256 of the secret is kept, so the table never holds a usable token.
CREATE TABLE portal_sessions (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  -- The email the session was opened for: a customer whose email changed since cannot use it.
  email text NOT NULL,
  secret_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX portal_sessions_customer ON portal_sessions (customer_id);

-- One row per form submission of the portal: a second submission of the same form (a double
-- click, a replayed POST) finds its row and does nothing again.
CREATE TABLE portal_submissions (
  session_id uuid NOT NULL REFERENCES portal_sessions (id) ON DELETE CASCADE,
  nonce text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (session_id, nonce)
);

-- Who caused an event: null for the API and the billing engine, `customer_portal` for the portal.
ALTER TABLE events ADD COLUMN actor text;
