-- API keys made through the API or the dashboard (issue 29, "Developers"; decision 0084) may carry
-- a name the seller chose, so that a list of prefixes says which key is which. Listed per
-- environment, newest first.
ALTER TABLE api_keys ADD COLUMN name text;
CREATE INDEX api_keys_environment_idx ON api_keys (environment_id, created_at DESC);
