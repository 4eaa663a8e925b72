-- The claim walks waiting jobs in its own order (run_at nulls first, id) and stops at its
-- limit (modules/jobs/repo.ts). The index on run_at alone, in the other order for nulls,
-- made it read and sort every waiting job: about 10 ms a claim with 10,000 queued.
DROP INDEX IF EXISTS jobs_waiting;
CREATE INDEX IF NOT EXISTS jobs_claim_order ON jobs (run_at NULLS FIRST, id) WHERE state IN ('pending', 'failed');
