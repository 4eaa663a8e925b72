import { ErrorBody, TransactionList, TransactionListQuery } from '@billow/contract';
import { pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import type { TransactionService } from './service.js';
import { scopeOf } from '../../http/scope.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };

export function transactionRoutes(app: App, service: TransactionService): void {
  app.get(
    '/api/v1/transaction/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Transactions'],
        summary: 'List transactions, newest first',
        description:
          'Money movements: CHARGE and REFUND rows with the merchant-of-record fee, collected tax and net payout. The path is singular, as in the reference.',
        querystring: TransactionListQuery,
        response: { 200: TransactionList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.list(scopeOf(request), request.query, at);
      return pageOf(request, at, count, results);
    },
  );
}
