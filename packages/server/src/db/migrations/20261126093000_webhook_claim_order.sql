-- The dispatcher claims waiting deliveries oldest first (ORDER BY event_seq LIMIT n): with this
-- index it walks them in that order and stops once it has enough, instead of checking the order
-- of every waiting delivery and sorting them all on each claim (12 ms a claim with 3,000 waiting).
CREATE INDEX webhook_deliveries_waiting ON webhook_deliveries (event_seq) WHERE status IN ('pending', 'delivering');
