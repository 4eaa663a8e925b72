-- A customer's timeline (issue 29, "Customers"; decision 0085): each event names the customer it
-- is about (the seller's customerId, as its payload carries it), so that the customer page lists
-- that customer's events, newest first, as a walk of one index however many events the
-- environment holds. Events about no customer (a seller profile, a webhook endpoint) keep null.
ALTER TABLE events ADD COLUMN customer_id text;

-- As modules/events/writer.ts (customerIdOf) reads it: an order's own customer_id is Billow's row id.
UPDATE events SET customer_id = COALESCE(
  payload -> 'data' -> 'object' -> 'customer' ->> 'customer_id',
  payload -> 'data' -> 'object' -> 'buyer' ->> 'customer_id',
  CASE WHEN payload -> 'data' -> 'object' ->> 'object' = 'customer' THEN payload -> 'data' -> 'object' ->> 'customer_id' END
);

CREATE INDEX events_customer_idx ON events (environment_id, customer_id, seq DESC) WHERE customer_id IS NOT NULL;
