-- Background work as rows (decision 0027): enqueued in the transaction of the change that
-- causes it, claimed with FOR UPDATE SKIP LOCKED under a lease, retried with backoff,
-- and kept `dead` with its last error when out of attempts.
CREATE TABLE jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  payload jsonb NOT NULL,
  -- At most one live job (pending, running, failed) per name and key: the same work is never queued twice.
  unique_key text,
  state text NOT NULL CHECK (state IN ('pending', 'running', 'failed', 'succeeded', 'dead')),
  -- By the runner's clock, never the database's now(), so that tests and test clocks move time. Null: at once.
  run_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  -- The process running it, and until when: after that, the process is taken for dead and another may run it.
  locked_by text,
  locked_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

CREATE UNIQUE INDEX jobs_live_unique_key ON jobs (name, unique_key)
  WHERE unique_key IS NOT NULL AND state IN ('pending', 'running', 'failed');
CREATE INDEX jobs_waiting ON jobs (run_at) WHERE state IN ('pending', 'failed');
CREATE INDEX jobs_leased ON jobs (locked_until) WHERE state = 'running';
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE state = 'succeeded';

-- Pending activate_on_payment changes recorded before this migration expired through a periodic
-- sweep; from now on each has its job, due at its expiry.
INSERT INTO jobs (name, payload, unique_key, state, run_at)
SELECT 'expire-pending-subscription-update',
       jsonb_build_object('environmentId', environment_id, 'subscriptionId', id),
       'expire-pending-update:' || id,
       'pending',
       pending_expires_at
FROM subscriptions
WHERE status = 'incomplete' AND pending_expires_at IS NOT NULL;
