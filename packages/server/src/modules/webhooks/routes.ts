import {
  ErrorBody,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointListQuery,
  WebhookEndpointPath,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
  WebhookLogDetail,
  WebhookLogList,
  WebhookLogListQuery,
  WebhookLogPath,
  WebhookQueued,
  WebhookReplay,
  WebhookSecretRotation,
  NoContent,
} from '@billow/contract';
import { pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { WebhookService } from './service.js';
import { answerKeeper } from '../../http/idempotency.js';

const tags = ['Webhooks'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const auth = { auth: SERVER_ONLY };
const OURS = 'Ours: the reference manages endpoints in its dashboard only.';
const SECRET = { ...auth, secretFields: ['secret'] };

function endpointRoutes(app: App, service: WebhookService): void {
  app.post(
    '/api/v1/webhook/endpoints/',
    {
      config: SECRET,
      schema: {
        tags,
        summary: 'Create a webhook endpoint',
        description: `${OURS} Answers with its signing secret, shown only this once. Production takes https URLs of public hosts only.`,
        body: WebhookEndpointCreate,
        response: { 201: WebhookEndpointWithSecret, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(scopeOf(request), request.body, answerKeeper(request, reply, 201))),
  );
  app.get(
    '/api/v1/webhook/endpoints/',
    { config: auth, schema: { tags, summary: 'List webhook endpoints, newest first', description: OURS, querystring: WebhookEndpointListQuery, response: { 200: WebhookEndpointList, ...errors } } },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.list(scopeOf(request), at);
      return pageOf(request, at, count, results);
    },
  );
  app.get(
    '/api/v1/webhook/endpoints/:id/',
    { config: auth, schema: { tags, summary: 'Retrieve a webhook endpoint', params: WebhookEndpointPath, response: { 200: WebhookEndpoint, ...errors } } },
    async (request) => service.get(scopeOf(request), request.params.id),
  );
  app.patch(
    '/api/v1/webhook/endpoints/:id/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Update a webhook endpoint',
        description: 'Only the fields sent change. Enabling an endpoint Billow disabled starts its count of failures over; deliveries that waited meanwhile then go out, in order.',
        params: WebhookEndpointPath,
        body: WebhookEndpointUpdate,
        response: { 200: WebhookEndpoint, ...errors },
      },
    },
    async (request) => service.update(scopeOf(request), request.params.id, request.body),
  );
  app.delete(
    '/api/v1/webhook/endpoints/:id/',
    { config: auth, schema: { tags, summary: 'Delete a webhook endpoint', description: 'Its waiting deliveries are dropped; its delivery logs stay.', params: WebhookEndpointPath, response: { 204: NoContent, ...errors } } },
    async (request, reply) => {
      await service.delete(scopeOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

function endpointActionRoutes(app: App, service: WebhookService): void {
  app.post(
    '/api/v1/webhook/endpoints/:id/rotate-secret/',
    {
      config: SECRET,
      schema: {
        tags,
        summary: 'Rotate the signing secret of an endpoint',
        description:
          'Answers with the new secret, shown only this once. For the grace period (24 hours unless told) each delivery is signed with both: ' +
          '`webhook-signature` carries the new signature first, then the previous one, space-separated.',
        params: WebhookEndpointPath,
        body: WebhookSecretRotation,
        response: { 200: WebhookEndpointWithSecret, ...errors, 409: ErrorBody },
      },
      // The body is optional: a POST without one rotates with the default grace period.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => service.rotateSecret(scopeOf(request), request.params.id, request.body, answerKeeper(request, reply, 200)),
  );
  app.post(
    '/api/v1/webhook/endpoints/:id/replay/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Send the events of a time range to an endpoint again',
        description: `${OURS} Every event created in [since, until) of the types the endpoint takes, with its original id, in order per object.`,
        params: WebhookEndpointPath,
        body: WebhookReplay,
        response: { 202: WebhookQueued, ...errors },
      },
    },
    async (request, reply) => reply.code(202).send(await service.replay(scopeOf(request), request.params.id, request.body, answerKeeper(request, reply, 202))),
  );
}

function logRoutes(app: App, service: WebhookService): void {
  app.get(
    '/api/v1/webhook/logs/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'List webhook delivery attempts, newest first',
        description: 'One row per attempt; `retryCount` 0 is the first. Kept 30 days: `start_date` and `end_date` filter on the attempt and are clamped to them.',
        querystring: WebhookLogListQuery,
        response: { 200: WebhookLogList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.listLogs(scopeOf(request), request.query, at);
      return pageOf(request, at, count, results);
    },
  );
  app.get(
    '/api/v1/webhook/logs/:id/',
    { config: auth, schema: { tags, summary: 'Retrieve one delivery attempt with its request and answer', params: WebhookLogPath, response: { 200: WebhookLogDetail, ...errors } } },
    async (request) => service.getLog(scopeOf(request), request.params.id),
  );
  app.post(
    '/api/v1/webhook/logs/:id/resend/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Send the event of a delivery attempt again',
        description: `${OURS} The same event (same id and webhook-id) to the same endpoint, at once; its attempts appear in the logs.`,
        params: WebhookLogPath,
        response: { 202: WebhookQueued, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(202).send(await service.resend(scopeOf(request), request.params.id, answerKeeper(request, reply, 202))),
  );
}

export function webhookRoutes(app: App, service: WebhookService): void {
  endpointRoutes(app, service);
  endpointActionRoutes(app, service);
  logRoutes(app, service);
}
