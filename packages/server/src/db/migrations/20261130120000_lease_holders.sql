-- The process holding a lease, by the key of its session advisory lock (decision 0051): a lease whose
-- holder's lock is free belongs to a process that is gone and is taken over at once.
ALTER TABLE idempotency_keys ADD COLUMN holder integer;
ALTER TABLE jobs ADD COLUMN holder integer;
ALTER TABLE payment_intents ADD COLUMN holder integer;
