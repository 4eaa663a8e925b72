export const METADATA_LIMITS = { maxKeys: 50, maxKeyLength: 40, maxBytes: 8192 } as const;

/** Returns why metadata is too big, or null when it fits. */
export function metadataProblem(metadata: Record<string, unknown>): string | null {
  const keys = Object.keys(metadata);
  if (keys.length > METADATA_LIMITS.maxKeys) return `metadata may hold at most ${METADATA_LIMITS.maxKeys} keys`;
  const long = keys.find((k) => k.length > METADATA_LIMITS.maxKeyLength);
  if (long !== undefined) return `metadata key "${long.slice(0, 50)}" is longer than ${METADATA_LIMITS.maxKeyLength} characters`;
  if (Buffer.byteLength(JSON.stringify(metadata)) > METADATA_LIMITS.maxBytes) {
    return `metadata may be at most ${METADATA_LIMITS.maxBytes} bytes as JSON`;
  }
  return null;
}
