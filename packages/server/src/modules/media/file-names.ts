/**
 * Longest file name kept in a key, in UTF-8 bytes: file systems allow 255 per
 * name (the local store adds ".json" for metadata) and S3 1,024 per key.
 */
export const MAX_FILE_NAME_BYTES = 200;
const MAX_EXTENSION_BYTES = 32;

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The name a key ends with: its last path segment, without control or
 * formatting characters (bidirectional overrides would disguise an extension),
 * with characters that mean something in URLs or on common file systems
 * replaced, and shortened. Null when nothing usable is left.
 */
export function sanitizeFileName(raw: string): string | null {
  const lastSegment = raw.split(/[/\\]/).pop() ?? '';
  const cleaned = lastSegment
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/[<>:"|?*#%]/g, '_')
    .replace(/\s+/gu, ' ')
    .trim();
  if (cleaned === '' || /^\.+$/.test(cleaned)) return null;
  return shorten(cleaned);
}

/** The longest prefix of whole characters that fits in `maxBytes`. */
function truncate(text: string, maxBytes: number): string {
  let out = '';
  let used = 0;
  for (const char of text) {
    used += byteLength(char);
    if (used > maxBytes) break;
    out += char;
  }
  return out;
}

/** Shortens the stem and keeps the extension, unless the extension alone is unreasonably long. */
function shorten(name: string): string {
  if (byteLength(name) <= MAX_FILE_NAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot) : '';
  if (extension === '' || byteLength(extension) > MAX_EXTENSION_BYTES) {
    return truncate(name, MAX_FILE_NAME_BYTES).trimEnd();
  }
  return truncate(name.slice(0, dot), MAX_FILE_NAME_BYTES - byteLength(extension)).trimEnd() + extension;
}

/** `attachment` with an ASCII fallback name and the exact name in UTF-8 (RFC 6266). */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
