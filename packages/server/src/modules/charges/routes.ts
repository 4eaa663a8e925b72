import { ChargeCreate, ChargeRecord, ErrorBody } from '@billow/contract';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import type { ChargeCreator } from './ports.js';
import { scopeOf } from '../../http/scope.js';

export function chargeRoutes(app: App, service: ChargeCreator): void {
  app.post(
    '/api/v1/charges/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Charges'],
        summary: 'Charge a customer once',
        description:
          "Bills a plan as a one-time payment at once, off-session, to the customer's default payment method (or the one of an active subscription); no checkout session. 400 when there is no usable payment method, when the charge is declined or needs authentication, when the organization is blocked, when chargePeriod is not ONE_TIME, and when currencyCode differs from the customer's currency. Creates a COMPLETE order, a PAID invoice and a CHARGE transaction. 409 `payment_in_progress` while another payment of the same customer is being made; 409 `purchase_changed` (the payment given back) when the plan changed while it was being paid.",
        body: ChargeCreate,
        response: { 201: ChargeRecord, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody, 428: ErrorBody },
      },
    },
    async (request, reply) => {
      const auth = scopeOf(request);
      const scope = { organizationId: auth.organizationId, environmentId: auth.environmentId, environment: auth.environment };
      return reply.code(201).send(await service.create(scope, request.body, request.idempotency));
    },
  );
}
