-- Whether a checkout session may act for an existing customer named by its customer_ref
-- (decision 0054): true only for sessions a server key (or Billow itself) made. A client
-- key's or a buy link's session never reads nor changes a customer it did not create.
ALTER TABLE checkout_sessions ADD COLUMN customer_trusted boolean NOT NULL DEFAULT true;
