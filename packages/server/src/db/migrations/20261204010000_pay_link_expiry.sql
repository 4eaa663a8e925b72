-- The payment link of an unpaid invoice expires (issue 28, decision 0070): 30 days after the
-- last attempt that failed, moved on by each new failure. Links written before keep working
-- for 30 days from now.
ALTER TABLE invoices ADD COLUMN pay_token_expires_at timestamptz;
UPDATE invoices SET pay_token_expires_at = now() + interval '30 days' WHERE pay_token IS NOT NULL AND status <> 'PAID';
