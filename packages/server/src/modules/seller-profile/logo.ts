/**
 * The checks of an uploaded logo: a PNG or JPEG by its bytes (never by the type its uploader
 * declared), small enough to embed in every page and document, and of a sensible size.
 */
import { createHash } from 'node:crypto';
import { imageSize } from 'image-size';
import { logoDimensions, logoNotAnImage, logoTooLarge } from './errors.js';

export const LOGO_MAX_BYTES = 256 * 1024;
const MIN_SIDE = 16;
const MAX_SIDE = 2000;
const TYPES: Record<string, { contentType: string; extension: string }> = {
  png: { contentType: 'image/png', extension: 'png' },
  jpg: { contentType: 'image/jpeg', extension: 'jpg' },
};

export interface CheckedLogo {
  digest: string;
  contentType: string;
  width: number;
  height: number;
  bytes: Buffer;
}

export function checkedLogo(bytes: Buffer): CheckedLogo {
  if (bytes.length > LOGO_MAX_BYTES) throw logoTooLarge(LOGO_MAX_BYTES);
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    throw logoNotAnImage();
  }
  const type = size.type ? TYPES[size.type] : undefined;
  if (!type) throw logoNotAnImage();
  const { width, height } = size;
  if (width < MIN_SIDE || height < MIN_SIDE || width > MAX_SIDE || height > MAX_SIDE) throw logoDimensions(width, height, MIN_SIDE, MAX_SIDE);
  const digest = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${type.extension}`;
  return { digest, contentType: type.contentType, width, height, bytes };
}

/** Where a logo is served, below the site's root: one address per logo, so it is cached for good. */
export const logoPath = (environmentId: string, digest: string) => `/seller-logos/${environmentId}/${digest}`;
