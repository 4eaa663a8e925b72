/** What storage knows about an object. */
export interface ObjectInfo {
  size: number;
  contentType: string;
  uploadedAt: Date;
}

/** A form upload: POST multipart/form-data to `url` with every field, then the bytes as `file`. */
export interface PresignedUpload {
  url: string;
  fields: Record<string, string>;
}

export interface UploadGrant {
  /** Absolute root of the request, for stores that Billow serves itself. */
  baseUrl: string;
  key: string;
  contentType: string;
  maxBytes: number;
  expiresAt: Date;
}

export interface DownloadGrant {
  baseUrl: string;
  key: string;
  fileName: string;
  expiresAt: Date;
}

/** Object storage as media needs it. Keys are checked by the caller (see keys.ts). */
export interface ObjectStore {
  presignUpload(grant: UploadGrant): Promise<PresignedUpload>;
  head(key: string): Promise<ObjectInfo | null>;
  /** Copies an object with its content type; false when the source does not exist. */
  copy(from: string, to: string): Promise<boolean>;
  /** An object's bytes (for files Billow keeps itself, such as the seller's logo); null when it does not exist. */
  read(key: string): Promise<Buffer | null>;
  /** Deletes an object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** A URL that serves the object as an attachment named `fileName` until `expiresAt`. */
  downloadUrl(grant: DownloadGrant): Promise<string>;
  /** A URL that serves a `public/` object to anyone. */
  publicUrl(baseUrl: string, key: string): string;
  /** A short-lived URL that serves the object as it is, when the store serves objects itself (S3); absent otherwise. */
  inlineUrl?(key: string, ttlSeconds: number): Promise<string>;
  close(): Promise<void>;
}
