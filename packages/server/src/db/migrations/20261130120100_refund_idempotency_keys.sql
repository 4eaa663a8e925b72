-- The request that made a refund (its Idempotency-Key): a retry after a crash finds the refund, completes it if it is
-- still processing, and answers it, instead of refunding again.
ALTER TABLE refunds ADD COLUMN idempotency_scope text;
ALTER TABLE refunds ADD COLUMN idempotency_key text;
CREATE UNIQUE INDEX refunds_idempotency ON refunds (idempotency_scope, idempotency_key) WHERE idempotency_key IS NOT NULL;
