-- The language a person chose for the seller's dashboard (issue 29; decision 0108). Null: the
-- dashboard follows the browser's languages, else English. The same five languages as the
-- hosted pages and emails.
ALTER TABLE users ADD COLUMN language text NULL CHECK (language IN ('en', 'de', 'fr', 'es', 'ja'));
