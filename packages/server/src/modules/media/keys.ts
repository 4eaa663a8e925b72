import { randomUUID } from 'node:crypto';

export type Visibility = 'public' | 'private';

export const TMP_PREFIX = 'tmp/';
const MAX_KEY_LENGTH = 1024;

/** Where a presigned upload lands: unguessable, and never served as is. */
export function tmpKey(fileName: string): string {
  return `${TMP_PREFIX}${randomUUID()}/${fileName}`;
}

/**
 * Permanent objects live under their visibility, environment and purpose:
 * `public/<environment>/products/<id>/<uuid>/<name>`. Only `public/` is served
 * without a signature; the random segment makes each key unguessable and new.
 */
export function permanentKey(visibility: Visibility, environmentId: string, purpose: string, fileName: string): string {
  return `${visibility}/${environmentId}/${purpose}/${randomUUID()}/${fileName}`;
}

/** A key that maps to a path below the store's root and to a URL path unchanged in meaning. */
export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) return false;
  if (/[\\\p{Cc}]/u.test(key)) return false;
  return key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** A purpose is one or more safe path segments, chosen by the calling module (`products/<id>`). */
export function isValidPurpose(purpose: string): boolean {
  return isSafeKey(purpose) && !purpose.startsWith(TMP_PREFIX);
}

export const isPublicKey = (key: string) => key.startsWith('public/') && isSafeKey(key);

/** The key as a URL path, each segment percent-encoded. */
export const keyPath = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/** Where Billow serves a public object: `/media/public/...`, the key as the path. */
export const billowPublicUrl = (baseUrl: string, key: string) => `${baseUrl}/media/${keyPath(key)}`;
