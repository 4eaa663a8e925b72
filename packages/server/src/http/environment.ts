import type { IncomingMessage } from 'node:http';
import type { EnvironmentKind } from '../config.js';

const ENVIRONMENT = Symbol('billow.environment');
const SANDBOX_PREFIX = '/sandbox';

type TaggedRequest = IncomingMessage & { [ENVIRONMENT]?: EnvironmentKind };

/**
 * Used as Fastify's rewriteUrl: `/sandbox/...` selects sandbox and is routed
 * as `/...`; without the prefix the host-name map decides, else production.
 */
export function environmentRewriter(hostEnvironments: Map<string, EnvironmentKind>) {
  return (req: IncomingMessage): string => {
    const url = req.url ?? '/';
    const tagged = req as TaggedRequest;
    if (url === SANDBOX_PREFIX || url.startsWith(`${SANDBOX_PREFIX}/`) || url.startsWith(`${SANDBOX_PREFIX}?`)) {
      tagged[ENVIRONMENT] = 'sandbox';
      const rest = url.slice(SANDBOX_PREFIX.length);
      return rest.startsWith('/') ? rest : `/${rest}`;
    }
    if (hostEnvironments.size > 0) {
      const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
      tagged[ENVIRONMENT] = hostEnvironments.get(host) ?? 'production';
    } else {
      tagged[ENVIRONMENT] = 'production';
    }
    return url;
  };
}

export function environmentOf(req: IncomingMessage): EnvironmentKind {
  return (req as TaggedRequest)[ENVIRONMENT] ?? 'production';
}
