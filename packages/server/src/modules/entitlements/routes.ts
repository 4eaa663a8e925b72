import { CheckEntitlementsResponse, EntitlementsQuery, ErrorBody } from '@billow/contract';
import type { FastLane } from '../../http/fast-lane.js';
import { sendJson, SERVER_OR_CLIENT, type App } from '../../http/route-types.js';
import type { EntitlementService } from './service.js';
import { scopeOf } from '../../http/scope.js';

const tags = ['Entitlements'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

const CHECK_URL = '/api/v1/entitlements/';

export function entitlementRoutes(app: App, service: EntitlementService, lane: FastLane): void {
  // A cached answer is served ahead of Fastify; anything else reaches the route below.
  lane.route(CHECK_URL, {
    url: CHECK_URL,
    required: ['customer_id'],
    optional: ['feature_id'],
    keys: SERVER_OR_CLIENT,
    answer: (environmentId, query) => service.cachedCheckBody(environmentId, query.customer_id!, query.feature_id),
  });
  // Served with and without the trailing slash: the official node client calls /entitlements.
  app.get(
    CHECK_URL,
    {
      config: { auth: SERVER_OR_CLIENT },
      schema: {
        tags,
        summary: "Check a customer's entitlements",
        description:
          'One entry per granting subscription and feature (a feature granted by two subscriptions appears twice; clients sum them). ' +
          'feature_id keeps only that feature\'s entries: an empty list when the customer lacks it. customerId and featureId are accepted too. ' +
          'Server and client keys.',
        querystring: EntitlementsQuery,
        response: { 200: CheckEntitlementsResponse, ...errors },
      },
    },
    (request, reply) => {
      const { environmentId } = scopeOf(request);
      // Already JSON: the response schema documents it, and the body skips serialization. A cached
      // answer comes without a promise (a sync handler that throws is answered as an error too).
      const body = service.checkBody(environmentId, request.query.customer_id, request.query.feature_id);
      if (body instanceof Promise) {
        return body.then((json) => {
          sendJson(reply, json);
        });
      }
      sendJson(reply, body);
      return undefined;
    },
  );
}
