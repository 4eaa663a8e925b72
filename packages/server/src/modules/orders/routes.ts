import { ErrorBody, Order, OrderEventList, OrderList, OrderListQuery, OrderPath, ORDER_SORTS, PageQuery } from '@billow/contract';
import { listOrder, pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import type { OrderService } from './service.js';
import { scopeOf } from '../../http/scope.js';

const tags = ['Orders'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export function orderRoutes(app: App, service: OrderService): void {
  app.get(
    '/api/v1/orders/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'List orders, newest paid first',
        description:
          'PENDING orders (payment never completed) are never listed. `start_date` and `end_date` apply to the paid date. ' +
          'Ours: `sort` (paidOn, createdOn, total) with `order` (asc, desc; desc by default) orders the whole list before it is paged; ' +
          'sorted by paidOn, orders never paid come last either way.',
        querystring: OrderListQuery,
        response: { 200: OrderList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const sort = listOrder(request.query, ORDER_SORTS, ORDER_SORTS);
      const { count, capped, results } = await service.list(scopeOf(request), request.query, at, sort);
      return pageOf(request, at, count, results, capped);
    },
  );

  app.get(
    '/api/v1/orders/:id/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Retrieve an order',
        description: 'PENDING orders answer 404, as unknown ones do.',
        params: OrderPath,
        response: { 200: Order, ...errors },
      },
    },
    async (request) => service.get(scopeOf(request), request.params.id),
  );

  app.get(
    '/api/v1/orders/:id/events/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: "List an order's timeline, newest first",
        description: 'The timeline covers every order of the same subscription, not only this one.',
        params: OrderPath,
        querystring: PageQuery,
        response: { 200: OrderEventList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.events(scopeOf(request), request.params.id, at);
      return pageOf(request, at, count, results);
    },
  );
}
