-- The provider request of a payment intent, as it was first sent (decision 0050): a retry, the
-- recovery task and a provider's webhook send exactly this again under the intent's key, never
-- a request rebuilt from the flow that resumes it (the hosted checkout paid on session, the
-- recovery task rebuilt it off session, and Stripe refused the same key with other parameters).
-- Null for intents recorded before this column: those are rebuilt as before.
ALTER TABLE payment_intents ADD COLUMN provider_request jsonb;
