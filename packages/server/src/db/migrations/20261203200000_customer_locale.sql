-- The customer's language for what Billow shows and sends them (issue 28, item 3): an IETF
-- tag such as "de" or "ja-JP", set through the API or remembered from the checkout.
ALTER TABLE customers ADD COLUMN locale text;
