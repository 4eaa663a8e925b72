-- Lawful invoices (issue 27, decision 0064): the customer credit that paid part of an invoice. It
-- is counted in discount_minor (the API's amountDiscount), but it is no discount: the tax was
-- reckoned before it, so the PDF shows it after the total, below the taxable amounts.
ALTER TABLE invoices ADD COLUMN credit_minor bigint NOT NULL DEFAULT 0;
