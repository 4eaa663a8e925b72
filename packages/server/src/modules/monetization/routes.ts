import { ErrorBody, ProductOffering, ProductOfferingPath, ProductOfferingQuery } from '@billow/contract';
import { SERVER_OR_CLIENT, type App } from '../../http/route-types.js';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { OfferingService } from './service.js';
import { scopeOf } from '../../http/scope.js';

const tags = ['Monetization'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export interface MonetizationDeps {
  db: Db;
  clock: Clock;
}

/** The public read models that pricing pages are drawn from. */
export function monetizationRoutes(app: App, { db, clock }: MonetizationDeps): void {
  const service = new OfferingService(db, clock);
  app.get(
    '/api/v1/monetization/product-offering/:product_id/',
    {
      config: { auth: SERVER_OR_CLIENT },
      schema: {
        tags,
        summary: 'Get a product offering',
        description: [
          'What a pricing page shows for a product, with a server or a client key: its published, visible,',
          'non-archived plans (the published version of each, never a draft), each with its price in the',
          'requested currency, else in the product settings\' currency, else its first enabled price',
          '(`price.currency` says which); `billingPeriods` lists the charge periods those prices use.',
          'Amounts are in the currency\'s major unit, exactly as set. With `customer_id`, `isCustomerExists`',
          'says whether that customer exists (archived customers do not), `countryCode` comes from its',
          'billing address, and `subscription` says whether the customer ever subscribed to the product',
          '(`hasPreviousSubscription`) and which subscription grants it the product now (`planIdentifier`,',
          '`subscriptionId`, `chargePeriod`; null when none does, e.g. after a cancellation took effect).',
          'The product is named by its id or its identifier; an unknown or archived product is 404.',
        ].join(' '),
        params: ProductOfferingPath,
        querystring: ProductOfferingQuery,
        response: { 200: ProductOffering, ...errors },
      },
    },
    async (request) => {
      const auth = scopeOf(request);
      return service.productOffering(
        { organizationId: auth.organizationId, environmentId: auth.environmentId, keyKind: auth.kind, callerIp: request.ip, userAgent: request.headers['user-agent'] },
        request.params.product_id,
        request.query,
      );
    },
  );
}
