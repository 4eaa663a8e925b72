import type { Role } from '../config.js';

/**
 * What a process started with `billow start --role <role>` does. Every role serves
 * /healthz, /readyz, /metrics and the API reference (/docs, /api/v1/openapi.json).
 *
 * | role   | Core API | Edge API | background work |
 * |--------|----------|----------|-----------------|
 * | all    | yes      | yes      | yes             |
 * | api    | yes      | yes      | no              |
 * | core   | yes      | no       | no              |
 * | edge   | no       | yes      | no              |
 * | worker | no       | no       | yes             |
 *
 * The Edge API is what the official clients send to their `edgeApiUrl`: the entitlement
 * checks, and the promotions UI's GET /promotions. Everything else (usage reports and license calls included, which the client
 * sends to its `baseUrl`) is the Core API.
 */
export function servesCoreApi(role: Role): boolean {
  return role === 'all' || role === 'api' || role === 'core';
}

export function servesEdgeApi(role: Role): boolean {
  return role === 'all' || role === 'api' || role === 'edge';
}

export function runsBackgroundWork(role: Role): boolean {
  return role === 'all' || role === 'worker';
}
