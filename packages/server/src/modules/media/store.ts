import type { Readable } from 'node:stream';

/** What storage knows about an object. */
export interface ObjectInfo {
  size: number;
  contentType: string;
  uploadedAt: Date;
  /** A validator of these bytes (quoted, as an ETag header carries it), when the store has one. */
  etag?: string;
}

/** An object's bytes as a stream, with what storage knows about it. */
export interface OpenObject {
  info: ObjectInfo;
  stream: Readable;
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
  /** An object's bytes as a stream, for Billow to serve; null when it does not exist. */
  open(key: string): Promise<OpenObject | null>;
  /**
   * Streams `body` into a new object, refusing it (fileTooLarge, nothing kept) as soon as it
   * passes `maxBytes`. Answers the size written.
   */
  write(key: string, contentType: string, body: Readable, maxBytes: number): Promise<number>;
  /** Deletes an object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** A URL that serves the object as an attachment named `fileName` until `expiresAt`. */
  downloadUrl(grant: DownloadGrant): Promise<string>;
  /** A URL that serves a `public/` object to anyone. */
  publicUrl(baseUrl: string, key: string): string;
  close(): Promise<void>;
}
