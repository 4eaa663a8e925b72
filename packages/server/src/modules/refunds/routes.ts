import { ErrorBody, Refund, RefundCreate, RefundList, RefundListQuery, RefundPath } from '@billow/contract';
import { pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import type { RefundCreator } from './ports.js';
import type { RefundService } from './service.js';
import { scopeOf } from '../../http/scope.js';
import { answerKeeper } from '../../http/idempotency.js';

const tags = ['Refunds'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export function refundRoutes(app: App, service: RefundService, refunding: RefundCreator): void {
  app.get(
    '/api/v1/refunds/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'List refunds, newest first',
        querystring: RefundListQuery,
        response: { 200: RefundList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.list(scopeOf(request), request.query, at);
      return pageOf(request, at, count, results);
    },
  );

  app.post(
    '/api/v1/refunds/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Refund an order, in full or in part',
        description:
          'Give `amountUnits` (minor units) or `amount` (major units) for a partial refund; `amountUnits` wins when both are given. ' +
          'Without either, whatever remains refundable is refunded. The amount must be greater than 0 and at most what remains. ' +
          'Trial orders, and orders that are not COMPLETE or PARTIAL_REFUND, cannot be refunded. ' +
          "Answers 200 with the refund; its status is the payment provider's answer (SUCCEEDED, or FAILED with failureReason). " +
          'The fee of the original charge is retained.',
        body: RefundCreate,
        response: { 200: Refund, ...errors, 409: ErrorBody, 428: ErrorBody },
      },
    },
    async (request, reply) => refunding.create(scopeOf(request), request.body, answerKeeper(request, reply, 200)),
  );

  app.get(
    '/api/v1/refunds/:refundId/',
    {
      config: { auth: SERVER_ONLY },
      schema: { tags, summary: 'Retrieve a refund', params: RefundPath, response: { 200: Refund, ...errors } },
    },
    async (request) => service.get(scopeOf(request), request.params.refundId),
  );
}
