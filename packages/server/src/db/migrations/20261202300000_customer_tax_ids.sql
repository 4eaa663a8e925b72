-- Business tax ids of customers (issue 27, item 5), checked when given, and the tax decision
-- each invoice was issued under: why its rate (standard, reverse_charge, ...) and the buyer's tax id.
ALTER TABLE customers ADD COLUMN tax_ids jsonb NOT NULL DEFAULT '[]'::jsonb;

-- The one unchecked tax id the portal kept in details.taxId moves to tax_ids, as an `other` id
-- of the billing country: printed as before, never a reason for a reverse charge.
UPDATE customers
SET tax_ids = jsonb_build_array(jsonb_build_object(
      'type', 'other',
      'value', upper(details->>'taxId'),
      'country', coalesce(billing_address->>'country', ''),
      'verification', jsonb_build_object('status', 'unchecked', 'checkedOn', NULL, 'name', NULL))),
    details = details - 'taxId'
WHERE coalesce(details->>'taxId', '') <> '';

ALTER TABLE invoices ADD COLUMN tax_reason text;
ALTER TABLE invoices ADD COLUMN buyer_tax_id jsonb;
