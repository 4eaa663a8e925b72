-- Payment methods: the environment-wide listing (GET /payment-methods/, newest first) reads this index.
CREATE INDEX payment_methods_listing_idx ON payment_methods (environment_id, id DESC)
  WHERE deleted_at IS NULL AND status = 'succeeded';
