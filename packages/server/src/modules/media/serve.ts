import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import type { ObjectInfo } from './store.js';

/**
 * Sends a stored file. Files are the sellers' uploads, served on Billow's own
 * origin: none may run as a page (an HTML or SVG file with scripts) or be
 * sniffed as another type than the one it was uploaded with.
 */
export function sendFile(
  reply: FastifyReply,
  object: { info: ObjectInfo; stream: Readable },
  headers: Record<string, string>,
): FastifyReply {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  reply.header('content-length', object.info.size);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.type(object.info.contentType).send(object.stream);
}
