-- A presigned upload form (local storage) uploads one file once: set when an upload
-- through it starts, cleared again if that upload fails.
ALTER TABLE media_uploads ADD COLUMN form_used_at timestamptz;
