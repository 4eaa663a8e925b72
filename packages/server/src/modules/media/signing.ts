import { createHmac, timingSafeEqual } from 'node:crypto';

type Purpose = 'upload' | 'download';

/**
 * Signs what the local store hands out (upload policies, download links) with
 * HMAC-SHA256. Each purpose uses its own key derived from the master secret,
 * so a signature made for one can never pass as the other.
 */
export class MediaSigner {
  private readonly keys: Record<Purpose, Buffer>;

  constructor(masterSecret: string) {
    const derive = (purpose: Purpose) => createHmac('sha256', masterSecret).update(`billow/media/${purpose}/v1`).digest();
    this.keys = { upload: derive('upload'), download: derive('download') };
  }

  sign(purpose: Purpose, payload: string): string {
    return createHmac('sha256', this.keys[purpose]).update(payload).digest('base64url');
  }

  verify(purpose: Purpose, payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(purpose, payload), 'base64url');
    const given = Buffer.from(signature, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** What a local upload may be: the form's `policy` field, base64url JSON. */
export interface UploadPolicy {
  key: string;
  contentType: string;
  maxBytes: number;
  /** Unix seconds. */
  expires: number;
}

export function encodePolicy(policy: UploadPolicy): string {
  return Buffer.from(JSON.stringify(policy)).toString('base64url');
}

/** The policy inside a field whose signature has been verified; null if it is not one of ours. */
export function decodePolicy(encoded: string): UploadPolicy | null {
  try {
    const value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Partial<UploadPolicy>;
    if (
      typeof value.key === 'string' &&
      typeof value.contentType === 'string' &&
      Number.isSafeInteger(value.maxBytes) &&
      Number.isSafeInteger(value.expires)
    ) {
      return value as UploadPolicy;
    }
  } catch {
    // not JSON: fall through
  }
  return null;
}

/** The signed content of a download link; JSON keeps the fields unambiguous. */
export const downloadPayload = (key: string, fileName: string, expires: number) =>
  JSON.stringify([key, fileName, expires]);
