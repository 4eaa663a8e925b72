import { fileTooLarge } from './errors.js';

/**
 * A pipeline step that passes chunks on while their total stays within `maxBytes` and
 * fails with fileTooLarge as soon as it passes it; `counted.size` is the total passed.
 */
export function byteLimit(maxBytes: number) {
  const counted = { size: 0 };
  const limit = async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      counted.size += chunk.length;
      if (counted.size > maxBytes) throw fileTooLarge(maxBytes);
      yield chunk;
    }
  };
  return { counted, limit };
}
