import {
  ErrorBody,
  PaymentMethod,
  PaymentMethodCreate,
  PaymentMethodList,
  PaymentMethodListQuery,
  PaymentMethodPath,
  PaymentMethodSetDefault,
  NoContent,
} from '@billow/contract';
import { pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import type { PaymentMethodService } from './methods.service.js';
import { scopeOf } from '../../http/scope.js';
import { answerKeeper } from '../../http/idempotency.js';

const tags = ['Payment methods'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export function paymentMethodRoutes(app: App, service: PaymentMethodService): void {

  app.get(
    '/api/v1/payment-methods/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'List saved payment methods, newest first',
        description:
          'Only methods whose status is `succeeded` are listed. `customer_id` and `customer_email` narrow the list; given both, a method must match both.',
        querystring: PaymentMethodListQuery,
        response: { 200: PaymentMethodList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.list(
        scopeOf(request),
        { customerId: request.query.customer_id, customerEmail: request.query.customer_email },
        at,
      );
      return pageOf(request, at, count, results);
    },
  );

  app.post(
    '/api/v1/payment-methods/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Attach a test card to a customer (sandbox only)',
        description:
          "An addition of Billow's, not in the Kelviq API: in the sandbox, saves a test card for a customer so that " +
          'charges and subscriptions can be exercised through the API alone. ' +
          '4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 has insufficient funds; ' +
          '4000 0025 0000 3155 requires authentication (off-session charges fail, on-session ones need a confirmation step); ' +
          'any other number that passes the Luhn check succeeds. The card must not have expired; the cvc is checked for ' +
          "length and never stored. A customer's first method becomes its default. " +
          'In production this answers 403 `sandbox_only`: there, once a payment provider is configured (docs/going-live.md), customers ' +
          "save their cards in Stripe's Payment Element, on the hosted checkout, in the portal or with POST /payment-methods/stripe/.",
        body: PaymentMethodCreate,
        response: { 201: PaymentMethod, ...errors },
      },
    },
    async (request, reply) => {
      const method = await service.attach(scopeOf(request), request.body, { keep: answerKeeper(request, reply, 201) });
      return reply.code(201).send(method);
    },
  );

  app.post(
    '/api/v1/payment-methods/:id/default/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: "Make a payment method its customer's default",
        description:
          "An addition of Billow's. The customer's previous default loses the flag in the same change; renewals and charges use the default.",
        params: PaymentMethodPath,
        body: PaymentMethodSetDefault,
        response: { 200: PaymentMethod, ...errors, 409: ErrorBody },
      },
      // Nothing to send, so no body either.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => service.makeDefault(scopeOf(request), request.params.id),
  );

  app.delete(
    '/api/v1/payment-methods/:id/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Remove a saved payment method',
        description:
          "An addition of Billow's (the reference's customers remove methods in its portal). The method is no longer listed " +
          'nor charged; when it was the default, the newest remaining method becomes the default. ' +
          'Writes `payment_method.deleted` (and `payment_method.updated` for a new default).',
        params: PaymentMethodPath,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(scopeOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
