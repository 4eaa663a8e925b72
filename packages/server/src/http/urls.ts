import type { FastifyRequest } from 'fastify';

/** The request's absolute root, e.g. https://billing.example.com (BILLOW_PUBLIC_URL wins when set). */
export function rootUrl(request: FastifyRequest, publicUrl: string | null): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/** The API base the caller used, environment prefix included: https://host/sandbox/api/v1. */
export function apiBaseUrl(request: FastifyRequest, publicUrl: string | null): string {
  const prefix = request.originalUrl.startsWith('/sandbox/') ? '/sandbox' : '';
  return `${rootUrl(request, publicUrl)}${prefix}/api/v1`;
}
