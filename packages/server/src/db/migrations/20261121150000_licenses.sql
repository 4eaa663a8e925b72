-- License keys (modules/licenses). A key's activation usage and its first activation
-- are read from its instances, active or not: one index range per key.
CREATE INDEX license_instances_license_idx ON license_instances (license_id, created_at);

-- A key sold with a subscription reports the subscription it lives on now: plan
-- changes create successor rows, which are found through previous_subscription_id.
CREATE INDEX subscriptions_previous_idx ON subscriptions (previous_subscription_id)
  WHERE previous_subscription_id IS NOT NULL;
