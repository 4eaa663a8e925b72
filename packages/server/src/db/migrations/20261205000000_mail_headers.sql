-- What a buyer email says of its sender (issue 28, decision 0075): the seller's name on the
-- From line, where replies go (the seller's support email), and for reminders only, how to
-- unsubscribe (List-Unsubscribe). Written with the message, so a retry sends the same headers.
ALTER TABLE mail_messages ADD COLUMN from_name text;
ALTER TABLE mail_messages ADD COLUMN reply_to text;
ALTER TABLE mail_messages ADD COLUMN list_unsubscribe text;
