-- Email to buyers from business events (issue 28, decision 0067).

-- A message written for a business event carries the event and its kind (`receipt`): one
-- message per (event, kind), however often the job that writes it runs. Its HTML part sits
-- beside the text; both are wiped once the message is sent.
ALTER TABLE mail_messages ADD COLUMN event_id uuid;
ALTER TABLE mail_messages ADD COLUMN kind text;
ALTER TABLE mail_messages ADD COLUMN body_html text;
CREATE UNIQUE INDEX mail_messages_event_kind ON mail_messages (event_id, kind) WHERE event_id IS NOT NULL;

-- Files a message carries (an invoice's PDF, about 10 KB), rendered by the job that wrote
-- the message, outside any transaction of the purchase; deleted with the message or once sent.
CREATE TABLE mail_attachments (
  message_id uuid NOT NULL REFERENCES mail_messages (id) ON DELETE CASCADE,
  position integer NOT NULL,
  file_name text NOT NULL,
  content_type text NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (message_id, position)
);
