-- The seller's identity per environment (issue 27): what checkout pages, portal, invoices and emails say
-- of who sells. One row per environment, written on the first update.
CREATE TABLE seller_profiles (
  environment_id uuid PRIMARY KEY REFERENCES environments (id),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  display_name text,
  legal_name text,
  address jsonb,
  tax_registrations jsonb NOT NULL DEFAULT '[]'::jsonb,
  support_email text,
  support_url text,
  website_url text,
  terms_url text,
  privacy_url text,
  refund_policy_url text,
  brand_color text,
  invoice_prefix text,
  default_language text NOT NULL DEFAULT 'en',
  time_zone text NOT NULL DEFAULT 'UTC',
  version integer NOT NULL,
  created_at timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);
