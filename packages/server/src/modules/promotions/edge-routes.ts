import { ErrorBody, PromotionQuery, PromotionResponse } from '@billow/contract';
import type { FastLane } from '../../http/fast-lane.js';
import { sendJson, SERVER_OR_CLIENT, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { PromotionEdgeService } from './edge-service.js';

const tags = ['Promotions'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

const PROMOTION_URL = '/api/v1/promotions/';

export function promotionEdgeRoutes(app: App, service: PromotionEdgeService, lane: FastLane): void {
  // A cached promotion is served ahead of Fastify; anything else reaches the route below.
  lane.route(PROMOTION_URL, {
    url: PROMOTION_URL,
    required: ['promotion_id'],
    optional: [],
    keys: SERVER_OR_CLIENT,
    answer: (environmentId, query, caller) =>
      service.cachedAnswer(environmentId, query.promotion_id!, { ip: caller.ip(), userAgent: caller.userAgent }),
  });
  // Served with and without the trailing slash: the promotions UI calls /promotions.
  app.get(
    PROMOTION_URL,
    {
      config: { auth: SERVER_OR_CLIENT },
      schema: {
        tags,
        summary: 'Get a promotion for the caller',
        description:
          "The promotion's discount for the caller's country, located from the request's address (behind a proxy, set " +
          'BILLOW_TRUST_PROXY): the country\'s override, else its purchasing-power group\'s percentage, with the coupon code; ' +
          'percentage 0 and an empty code when the country gets nothing, the promotion is disabled, or a check flags the caller. ' +
          'Billow has no VPN, Tor, proxy or Private Relay data: those are always false; crawlers are recognised by User-Agent. ' +
          'A client key, as the promotions UI sends (a server key is accepted too). 404 for an unknown or archived promotion.',
        querystring: PromotionQuery,
        response: { 200: PromotionResponse, ...errors },
      },
    },
    (request, reply) => {
      const { environmentId } = scopeOf(request);
      const caller = { ip: request.ip, userAgent: request.headers['user-agent'] };
      // A cached promotion is answered without a promise (a sync handler that throws is answered as an error too).
      const body = service.answer(environmentId, request.query.promotion_id, caller);
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
