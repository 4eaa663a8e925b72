-- Presigned uploads (POST /media/): one row per upload link, until the file is attached to the catalog.
CREATE TABLE media_uploads (
  id uuid PRIMARY KEY,
  environment_id uuid NOT NULL REFERENCES environments (id),
  -- tmp/<uuid>/<file name>: where the client uploads, and the fileKey it sends back.
  file_key text NOT NULL,
  file_name text NOT NULL,
  content_type text NOT NULL,
  max_size bigint NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  -- Seen in storage when the file was staged.
  uploaded_at timestamptz,
  size bigint,
  -- Where staging copied it (permanent storage); staged again, it moves on from here.
  stored_key text,
  consumed_at timestamptz,
  CONSTRAINT media_uploads_file_key_key UNIQUE (file_key),
  CONSTRAINT media_uploads_stored_key_key UNIQUE (stored_key)
);
CREATE INDEX media_uploads_environment_idx ON media_uploads (environment_id, created_at);
CREATE INDEX media_uploads_unconsumed_idx ON media_uploads (expires_at) WHERE consumed_at IS NULL;

-- Secrets of this installation, generated on first use (the signing key of media links).
CREATE TABLE instance_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL
);
