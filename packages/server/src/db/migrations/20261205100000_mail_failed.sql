-- A message the SMTP server kept refusing through every retry of its send-mail job ends as
-- `failed`, with the server's last answer in last_error (issue 28): it is no longer waiting,
-- and nothing else waits on it.
ALTER TABLE mail_messages DROP CONSTRAINT mail_messages_status_check;
ALTER TABLE mail_messages ADD CONSTRAINT mail_messages_status_check CHECK (status IN ('inbox', 'pending', 'sending', 'sent', 'expired', 'failed'));
