import {
  Customer,
  CustomerCreate,
  CUSTOMER_SORTS,
  CustomerList,
  CustomerListQuery,
  CustomerArchiveQuery,
  CustomerPath,
  CustomerEventList,
  CustomerLicenseList,
  CustomerEventListQuery,
  CustomerUpdate,
  ErrorBody,
  TestClockAttach,
  TestClockPath,
  NoContent,
} from '@billow/contract';
import { listOrder, pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import type { CustomerService } from './service.js';
import { scopeOf } from '../../http/scope.js';
import { answerKeeper } from '../../http/idempotency.js';

const tags = ['Customers'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export function customerRoutes(app: App, service: CustomerService): void {
  app.get(
    '/api/v1/customers/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'List customers, newest first',
        description:
          'Ours: `search` matches name, email and customerId anywhere in any case; `sort` (createdOn, name, email, customerId) ' +
          'with `order` (asc, desc) orders the whole list before it is paged.',
        querystring: CustomerListQuery,
        response: { 200: CustomerList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const sort = listOrder(request.query, CUSTOMER_SORTS, ['createdOn']);
      const { count, capped, results } = await service.list(scopeOf(request), request.query.search, at, sort);
      return pageOf(request, at, count, results, capped);
    },
  );

  app.post(
    '/api/v1/customers/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Create a customer',
        body: CustomerCreate,
        response: { 201: Customer, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const customer = await service.create(scopeOf(request), request.body, answerKeeper(request, reply, 201));
      return reply.code(201).send(customer);
    },
  );

  app.get(
    '/api/v1/customers/:customerId/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Retrieve a customer by its customerId',
        params: CustomerPath,
        response: { 200: Customer, ...errors },
      },
    },
    async (request) => service.get(scopeOf(request), request.params.customerId),
  );

  app.get(
    '/api/v1/customers/:customerId/events/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: "List a customer's events, newest first",
        description:
          "Ours (decision 0085): the customer's timeline, the events webhooks deliver about it (its orders, subscriptions, " +
          'invoices, payment methods, refunds, credit notes and the customer itself), newest first, archived customers included. ' +
          'Each names its type, its object and who caused it; the payload is in the webhook logs. 404 for an unknown customerId.',
        params: CustomerPath,
        querystring: CustomerEventListQuery,
        response: { 200: CustomerEventList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.events(scopeOf(request), request.params.customerId, at);
      return pageOf(request, at, count, results);
    },
  );

  app.get(
    '/api/v1/customers/:customerId/licenses/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: "List a customer's license keys with their active instances",
        description:
          "Ours (decision 0085): the customer's keys, newest first, with the plan each was sold with, its limit and expiry, and " +
          'the instances (machines) it is active on now, oldest first: what POST /license/deactivate/, or the seller\'s ' +
          'POST /customers/{customerId}/licenses/{licenseId}/instances/{instanceId}/deactivate/, can free. 404 for an unknown customerId.',
        params: CustomerPath,
        response: { 200: CustomerLicenseList, ...errors },
      },
    },
    async (request) => service.licenses(scopeOf(request), request.params.customerId),
  );

  app.patch(
    '/api/v1/customers/:customerId/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Update a customer',
        description:
          'Fields left out are kept. `metadata` and `billingAddress` replace the stored value as a whole; null clears them.',
        params: CustomerPath,
        body: CustomerUpdate,
        response: { 200: Customer, ...errors },
      },
    },
    async (request) => service.update(scopeOf(request), request.params.customerId, request.body),
  );

  app.delete(
    '/api/v1/customers/:customerId/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Archive a customer',
        description:
          'A soft delete: the customer leaves the list, loses every entitlement, and its customerId can never be used again. ' +
          'A customer with a subscription that would bill again (active, trialing or past_due) is refused with 400 ' +
          '`customer_has_active_subscriptions`, unless `cancel_subscriptions=true` (ours) is given: those subscriptions are then ' +
          'cancelled immediately, with their `subscription.cancelled` events, in the same transaction as the archive. ' +
          'One-time purchases do not block it.',
        params: CustomerPath,
        querystring: CustomerArchiveQuery,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await service.archive(scopeOf(request), request.params.customerId, {
        cancelSubscriptions: request.query.cancel_subscriptions === true,
      });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/test-clocks/:id/customers/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Test clocks'],
        summary: 'Attach an existing customer to a test clock',
        description:
          'Billow extension (decision 0087), sandbox only (production answers 403). The customer, who lived in real time, lives by the clock from now on: ' +
          'only one without any subscription (409 `customer_has_subscriptions`), never one of another clock (409 `customer_on_test_clock`), ' +
          'never onto a clock that stands before the customer was created (409 `test_clock_before_customer`), not while the clock advances (409), ' +
          'at most 100 customers a clock (400 `test_clock_full`). Attaching a customer to the clock it is on already changes nothing. Answers the customer, with its `testClockId`.',
        params: TestClockPath,
        body: TestClockAttach,
        response: { 200: Customer, ...errors, 409: ErrorBody },
      },
    },
    async (request) => service.attachToTestClock(scopeOf(request), request.params.id, request.body.customerId),
  );
}
