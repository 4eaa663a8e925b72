-- The seller's logo (issue 27): uploaded through POST /media/, checked, and kept here, small (at most
-- 256 KiB), so that pages serve it from Billow's own origin and documents embed it without asking the
-- object store. The profile names the current logo by its digest; replacing it replaces the row.
CREATE TABLE seller_logos (
  environment_id uuid PRIMARY KEY REFERENCES environments (id),
  digest text NOT NULL,
  content_type text NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL
);
ALTER TABLE seller_profiles ADD COLUMN logo_digest text;
