import { Discount, DiscountCreate, DiscountList, DiscountListQuery, DiscountPath, ErrorBody } from '@billow/contract';
import { pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { DiscountService } from './service.js';
import { answerKeeper } from '../../http/idempotency.js';

const tags = ['Discounts'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const auth = { auth: SERVER_ONLY };
const OURS = 'Ours: the reference manages discounts in its dashboard only. Server key; per environment.';

export function discountRoutes(app: App, service: DiscountService): void {
  app.post(
    '/api/v1/discounts/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Create a discount',
        description:
          `${OURS} A percentage (\`percentOff\`, up to two decimals) or fixed amounts per currency (\`amountsOff\`, in major units); ` +
          'for the first payment only, a number of payments, or every payment; an optional redemption limit, expiry and ' +
          'plan or product restrictions. The code is generated when omitted (8 capital letters and digits); buyers may type it in any case.',
        body: DiscountCreate,
        response: { 201: Discount, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(scopeOf(request), request.body, answerKeeper(request, reply, 201))),
  );

  app.get(
    '/api/v1/discounts/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'List discounts, newest first',
        description: `${OURS} Filter by \`status\` (ACTIVE, EXPIRED, ARCHIVED) and \`search\` (part of the code or name).`,
        querystring: DiscountListQuery,
        response: { 200: DiscountList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.list(scopeOf(request), request.query, at);
      return pageOf(request, at, count, results);
    },
  );

  app.get(
    '/api/v1/discounts/:id/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Retrieve a discount',
        description: `${OURS} By id, or by code (any case): the discount not archived with that code, else the last archived one.`,
        params: DiscountPath,
        response: { 200: Discount, ...errors },
      },
    },
    async (request) => service.get(scopeOf(request), request.params.id),
  );

  app.post(
    '/api/v1/discounts/:id/archive/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Archive a discount',
        description:
          `${OURS} The code is refused from then on and may be given to a new discount; subscriptions that already carry ` +
          'the discount keep it for the cycles they have left. Archiving an archived discount changes nothing.',
        params: DiscountPath,
        response: { 200: Discount, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => service.archive(scopeOf(request), request.params.id, answerKeeper(request, reply, 200)),
  );
}
