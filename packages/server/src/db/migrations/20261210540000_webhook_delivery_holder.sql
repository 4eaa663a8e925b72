-- The lease holder (db/lease-holder.ts) of a delivery being sent (decision 0123). A delivery whose
-- process died is taken over once its holder's lock is gone, as a job is, instead of after its
-- lease of a minute.
ALTER TABLE webhook_deliveries ADD COLUMN holder integer NULL;
