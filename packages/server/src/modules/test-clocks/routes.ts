import {
  ErrorBody,
  TestClock,
  TestClockAdvance,
  TestClockCreate,
  TestClockInvoiceList,
  TestClockList,
  TestClockListQuery,
  TestClockPath,
  NoContent,
} from '@billow/contract';
import { pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { TestClockService } from './service.js';
import { answerKeeper } from '../../http/idempotency.js';

const tags = ['Test clocks'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const auth = { auth: SERVER_ONLY };
const SANDBOX = 'Sandbox only (ours, modelled on Stripe\'s test clocks); production answers 403.';

export function testClockRoutes(app: App, service: TestClockService): void {
  app.post(
    '/api/v1/test-clocks/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Create a test clock',
        description: `${SANDBOX} Attach customers to it at their creation (\`testClockId\`), or later while they have no subscription (\`POST /api/v1/test-clocks/{id}/customers/\`): everything about them then follows the clock's time.`,
        body: TestClockCreate,
        response: { 201: TestClock, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(scopeOf(request), request.body, answerKeeper(request, reply, 201))),
  );

  app.get(
    '/api/v1/test-clocks/',
    { config: auth, schema: { tags, summary: 'List test clocks, newest first', description: SANDBOX, querystring: TestClockListQuery, response: { 200: TestClockList, ...errors } } },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.list(scopeOf(request), at);
      return pageOf(request, at, count, results);
    },
  );

  app.get(
    '/api/v1/test-clocks/:id/',
    { config: auth, schema: { tags, summary: 'Retrieve a test clock', description: SANDBOX, params: TestClockPath, response: { 200: TestClock, ...errors } } },
    async (request) => service.get(scopeOf(request), request.params.id),
  );

  app.get(
    '/api/v1/test-clocks/:id/invoices/',
    {
      config: auth,
      schema: {
        tags,
        summary: "What a test clock's advances billed",
        description: `Billow extension (decision 0087). ${SANDBOX} The invoices of the clock's customers, newest issued first: renewals, their payments and failed attempts, at the clock's times.`,
        params: TestClockPath,
        querystring: TestClockListQuery,
        response: { 200: TestClockInvoiceList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.invoices(scopeOf(request), request.params.id, at);
      return pageOf(request, at, count, results);
    },
  );

  app.post(
    '/api/v1/test-clocks/:id/advance/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Advance a test clock',
        description:
          `${SANDBOX} Forward only, at most two years at a time. Answers at once with status \`advancing\`; renewals, trial ends, ` +
          'dunning attempts and scheduled cancellations of its customers then run at their own times, in order, and the clock becomes `ready`.',
        params: TestClockPath,
        body: TestClockAdvance,
        response: { 200: TestClock, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => service.advance(scopeOf(request), request.params.id, request.body, answerKeeper(request, reply, 200)),
  );

  app.delete(
    '/api/v1/test-clocks/:id/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Delete a test clock',
        description: `${SANDBOX} Its customers keep the time it stopped at; nothing more falls due for them.`,
        params: TestClockPath,
        response: { 204: NoContent, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      await service.delete(scopeOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
