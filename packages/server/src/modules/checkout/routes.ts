import {
  CheckoutSessionCreate,
  CheckoutSessionCreated,
  CheckoutSessionDetail,
  CheckoutSessionEventList,
  CheckoutSessionList,
  CheckoutSessionListQuery,
  CheckoutSessionPath,
  ErrorBody,
  PageQuery,
} from '@billow/contract';
import { pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, SERVER_OR_CLIENT, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import { answerKeeper } from '../../http/idempotency.js';
import type { CheckoutService } from './service.js';

const tags = ['Checkout'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export function checkoutRoutes(app: App, service: CheckoutService): void {
  app.post(
    '/api/v1/checkout/',
    {
      config: { auth: SERVER_OR_CLIENT },
      schema: {
        tags,
        summary: 'Create a checkout session',
        description:
          'Answers the hosted page of the session (`checkoutUrl`, open 24 hours) and its id. Fields in camelCase or snake_case. ' +
          'Every field is checked against the catalog at creation (400 with `detail`, nothing created). A client key may create sessions, ' +
          'but not with `customAmount` (403). `offeringId`, `pricingTableId` and `ruleId` are kept, not resolved. ' +
          'A paid session in production with no payment provider configured is 428 `payment_provider_required`, as every other purchase.',
        body: CheckoutSessionCreate,
        response: { 201: CheckoutSessionCreated, ...errors, 428: ErrorBody },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const created = await service.create(
        { ...scope.toJSON(), organizationId: scope.organizationId, environmentId: scope.environmentId, callerIp: request.ip },
        request.body,
        'api',
        answerKeeper(request, reply, 201),
      );
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/v1/checkout/sessions/',
    {
      config: { auth: SERVER_ONLY },
      schema: { tags, summary: 'List checkout sessions, newest first', querystring: CheckoutSessionListQuery, response: { 200: CheckoutSessionList, ...errors } },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.list(scopeOf(request).toJSON(), request.query, at);
      return pageOf(request, at, count, results);
    },
  );

  app.get(
    '/api/v1/checkout/sessions/:id/',
    {
      config: { auth: SERVER_ONLY },
      schema: { tags, summary: 'Retrieve a checkout session', params: CheckoutSessionPath, response: { 200: CheckoutSessionDetail, ...errors } },
    },
    async (request) => service.get(scopeOf(request).toJSON(), request.params.id),
  );

  app.get(
    '/api/v1/checkout/sessions/:id/events/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: "A checkout session's timeline, newest first",
        params: CheckoutSessionPath,
        querystring: PageQuery,
        response: { 200: CheckoutSessionEventList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.events(scopeOf(request).toJSON(), request.params.id, at);
      return pageOf(request, at, count, results);
    },
  );
}
