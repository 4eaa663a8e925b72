import {
  ErrorBody,
  PppGroupList,
  Promotion,
  PromotionCreate,
  PromotionList,
  PromotionListQuery,
  PromotionPath,
  PromotionPreviewQuery,
  PromotionResponse,
  PromotionUpdate,
  NoContent,
} from '@billow/contract';
import { pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import { PPP_GROUP_DEFINITIONS, PPP_GROUP_SOURCE } from './ppp-groups.js';
import type { PromotionService } from './service.js';
import { answerKeeper } from '../../http/idempotency.js';

const tags = ['Promotions'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const auth = { auth: SERVER_ONLY };
const OURS =
  "Ours (the reference manages promotions in its dashboard only). The promotion's id is the promotion_id of the Edge API's GET /promotions.";

/** The management API of promotions: server key, per environment. */
export function promotionRoutes(app: App, service: PromotionService): void {
  app.post(
    '/api/v1/promotion-rules/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Create a promotion',
        description:
          `${OURS} A percentage per purchasing-power group (GET /promotion-rules/ppp-groups/), per-country overrides that win over ` +
          'the groups, a coupon code, the banner of the promotions UI, and the security checks (all on by default).',
        body: PromotionCreate,
        response: { 201: Promotion, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(scopeOf(request), request.body, answerKeeper(request, reply, 201))),
  );

  app.get(
    '/api/v1/promotion-rules/',
    { config: auth, schema: { tags, summary: 'List promotions, newest first', description: OURS, querystring: PromotionListQuery, response: { 200: PromotionList, ...errors } } },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.list(scopeOf(request), at, request.query);
      return pageOf(request, at, count, results);
    },
  );

  app.get(
    '/api/v1/promotion-rules/ppp-groups/',
    { config: auth, schema: { tags, summary: 'The purchasing-power groups and their countries', response: { 200: PppGroupList, ...errors } } },
    async () => ({ groups: PPP_GROUP_DEFINITIONS.map((g) => ({ ...g, countries: [...g.countries].sort() })), source: PPP_GROUP_SOURCE }),
  );

  app.get(
    '/api/v1/promotion-rules/:id/',
    { config: auth, schema: { tags, summary: 'Retrieve a promotion', description: OURS, params: PromotionPath, response: { 200: Promotion, ...errors } } },
    async (request) => service.get(scopeOf(request), request.params.id),
  );

  app.get(
    '/api/v1/promotion-rules/:id/preview/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'What a visitor from a country would be shown',
        description:
          `Ours. The answer the Edge API's GET /promotions gives a visitor located in \`country\` (a browser, not a crawler): ` +
          'the percentage that applies (the override, else the country group, else none), the coupon code and the message filled in. Nothing is stored.',
        params: PromotionPath,
        querystring: PromotionPreviewQuery,
        response: { 200: PromotionResponse, ...errors },
      },
    },
    async (request) => service.preview(scopeOf(request), request.params.id, request.query.country),
  );

  app.patch(
    '/api/v1/promotion-rules/:id/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Update a promotion',
        description: `${OURS} Its product stays; an archived promotion cannot be changed (409). Edge caches drop it at once.`,
        params: PromotionPath,
        body: PromotionUpdate,
        response: { 200: Promotion, ...errors, 409: ErrorBody },
      },
    },
    async (request) => service.update(scopeOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/promotion-rules/:id/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Archive a promotion',
        description: `${OURS} GET /promotions then answers 404 for it; it stays listed with archived=true.`,
        params: PromotionPath,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await service.archive(scopeOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
