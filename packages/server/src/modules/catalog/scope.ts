import type { FastifyRequest } from 'fastify';
import { authOf } from '../../http/route-types.js';
import { apiBaseUrl, rootUrl } from '../../http/urls.js';

export interface CatalogScope {
  organizationId: string;
  environmentId: string;
  /** Root URL of this server as the caller sees it. */
  baseUrl: string;
  /** The caller's API base, environment prefix included. */
  apiBase: string;
}

export type ScopeOf = (request: FastifyRequest) => CatalogScope;

export function scopeResolver(publicUrl: string | null): ScopeOf {
  return (request) => {
    const auth = authOf(request);
    return {
      organizationId: auth.organizationId,
      environmentId: auth.environmentId,
      baseUrl: rootUrl(request, publicUrl),
      apiBase: apiBaseUrl(request, publicUrl),
    };
  };
}
