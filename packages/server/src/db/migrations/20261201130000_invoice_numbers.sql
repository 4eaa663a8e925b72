-- Lawful invoice numbers (issue 27): one gapless sequence per environment and calendar year (in the
-- seller's time zone), assigned in the transaction that issues the invoice, so that a rollback gives
-- its number back. Invoices issued before this migration keep no number.
CREATE TABLE invoice_number_counters (
  environment_id uuid NOT NULL REFERENCES environments (id),
  year integer NOT NULL,
  last_number integer NOT NULL,
  PRIMARY KEY (environment_id, year)
);
ALTER TABLE invoices ADD COLUMN number text;
CREATE UNIQUE INDEX invoices_environment_number ON invoices (environment_id, number) WHERE number IS NOT NULL;
