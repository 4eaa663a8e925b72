import type { FastifyRequest } from 'fastify';
import type { EnvironmentKind } from '../../config.js';
import { authOf } from '../../http/route-types.js';
import { apiBaseUrl, rootUrl } from '../../http/urls.js';
import type { PresentContext } from './presenter.js';

/** Who is asking, and where the links of the answer point. */
export interface LedgerScope extends PresentContext {
  organizationId: string;
  environmentId: string;
  environment: EnvironmentKind;
}

export type LedgerScopeOf = (request: FastifyRequest) => LedgerScope;

export function ledgerScopeResolver(publicUrl: string | null): LedgerScopeOf {
  return (request) => {
    const auth = authOf(request);
    return {
      organizationId: auth.organizationId,
      environmentId: auth.environmentId,
      environment: auth.environment,
      baseUrl: rootUrl(request, publicUrl),
      apiBase: apiBaseUrl(request, publicUrl),
    };
  };
}
