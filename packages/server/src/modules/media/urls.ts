import type { FastifyRequest } from 'fastify';

/**
 * The absolute root of a request (`https://host`), or BILLOW_PUBLIC_URL when
 * set: the `baseUrl` that MediaService builds its URLs on.
 */
export function requestBaseUrl(request: FastifyRequest): string {
  return request.server.billow.media.baseUrlOf(request);
}
