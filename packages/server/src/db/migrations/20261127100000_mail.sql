-- Outgoing email and portal sign-in codes (issue 14, decision 0038).

-- Every message Billow writes. In the sandbox a message is kept for the development inbox
-- (`inbox`) and never sent; in production it is queued (`pending`), sent after the
-- transaction that wrote it (`sending` while an attempt holds it), and its body is wiped
-- once `sent`, or once worthless (`expired`: the code it carries expired first).
CREATE TABLE mail_messages (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  environment_id uuid NOT NULL REFERENCES environments (id),
  status text NOT NULL CHECK (status IN ('inbox', 'pending', 'sending', 'sent', 'expired')),
  recipient text NOT NULL,
  subject text NOT NULL,
  body_text text,
  created_at timestamptz NOT NULL,
  send_before timestamptz NOT NULL,
  locked_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  sent_at timestamptz
);
CREATE INDEX mail_messages_inbox ON mail_messages (environment_id, seq) WHERE status = 'inbox';

-- One row per code asked for on a portal's sign-in page, whether or not the email belongs
-- to a customer (the page answers the same either way, and the limits count both). Only an
-- HMAC of the code is kept; the browser that asked is bound by a hash of its cookie.
CREATE TABLE portal_sign_ins (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  environment_id uuid NOT NULL REFERENCES environments (id),
  email text NOT NULL,
  code_hash text NOT NULL,
  browser_hash text NOT NULL,
  client_address text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  verified_at timestamptz,
  used_at timestamptz
);
CREATE INDEX portal_sign_ins_email ON portal_sign_ins (environment_id, email, created_at);
CREATE INDEX portal_sign_ins_address ON portal_sign_ins (client_address, created_at);

-- Sign-in finds the customers of an email, as typed in any case.
CREATE INDEX customers_environment_email ON customers (environment_id, lower(email)) WHERE archived_at IS NULL;
