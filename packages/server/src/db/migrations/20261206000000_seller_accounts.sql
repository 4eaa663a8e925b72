-- Seller accounts and the audit log (issue 29, items 1 and 3; decisions 0076, 0077).

-- A person who signs in to the dashboard. The email is kept lower-cased: one account per address.
-- The password is an argon2id hash (PHC string); null until the person sets one (an invited or
-- created user who signed in only by link). A TOTP secret (sealed with the instance's key) is set up
-- pending, then enabled by a code.
CREATE TABLE users (
  id uuid PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name text NOT NULL DEFAULT '',
  password_hash text,
  totp_secret text,
  totp_pending_secret text,
  totp_enabled boolean NOT NULL DEFAULT false,
  -- Failed sign-ins in a row, and until when the account refuses passwords once they are too many.
  failed_sign_ins integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);

-- A person's place in an organization, with the role that says what they may do there.
CREATE TABLE memberships (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  user_id uuid NOT NULL REFERENCES users (id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'support', 'viewer')),
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  UNIQUE (organization_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

-- A signed-in browser. Only the SHA-256 of the cookie's token is kept. A session ends when it has
-- been idle too long (last_seen_at), at its absolute expiry, or when revoked (sign-out, a password
-- change, the person's own revocation).
CREATE TABLE user_sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  client_address text NOT NULL,
  user_agent text NOT NULL DEFAULT ''
);
CREATE INDEX user_sessions_user ON user_sessions (user_id, created_at);

-- One-time tokens mailed or printed to a person: a sign-in link, a password reset. Only the
-- SHA-256 of the token is kept; using one stamps used_at, so it works once.
CREATE TABLE account_tokens (
  token_hash text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('sign_in', 'password_reset')),
  user_id uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX account_tokens_user ON account_tokens (user_id);

-- An invitation to join an organization with a role, mailed as a link (token hashed).
CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'support', 'viewer')),
  token_hash text NOT NULL UNIQUE,
  invited_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX invitations_organization ON invitations (organization_id, created_at);

-- Every change made by a person (a session) or a key: who, what, when and from where. Rows are
-- only ever added (the trigger refuses updates and deletes).
CREATE TABLE audit_log (
  id uuid PRIMARY KEY,
  -- The order entries were written in: the log is read newest first by it.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  -- The environment the change was made in; null for the organization's team.
  environment_id uuid REFERENCES environments (id),
  actor_type text NOT NULL CHECK (actor_type IN ('user', 'api_key')),
  -- The user's id, or the key's visible prefix.
  actor_id text NOT NULL,
  -- The user's email, or the key's kind and prefix, as it was then.
  actor_label text NOT NULL,
  action text NOT NULL,
  resource_type text NOT NULL,
  resource_id text,
  before jsonb,
  after jsonb,
  client_address text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX audit_log_organization ON audit_log (organization_id, seq DESC);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only';
END;
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
