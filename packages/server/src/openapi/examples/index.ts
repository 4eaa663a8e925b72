import { CATALOG_EXAMPLES } from './catalog.js';
import { CUSTOMERS_EXAMPLES } from './customers.js';
import { DASHBOARD_EXAMPLES } from './dashboard.js';
import { LEDGER_EXAMPLES } from './ledger.js';
import { PAYMENTS_EXAMPLES } from './payments.js';
import { PLANS_EXAMPLES } from './plans.js';
import { SELLER_EXAMPLES } from './seller.js';
import { SUBSCRIPTIONS_EXAMPLES } from './subscriptions.js';
import type { OperationExample } from './operation-example.js';

export type { OperationExample };

/**
 * Every operation's examples, keyed by method and the document's path (`GET /api/v1/customers/{customerId}/`),
 * attached to the document by attach-examples.ts and checked against its schemas by test/openapi-examples.test.ts.
 */
export const OPERATION_EXAMPLES: Record<string, OperationExample> = {
  ...CATALOG_EXAMPLES,
  ...PLANS_EXAMPLES,
  ...CUSTOMERS_EXAMPLES,
  ...SUBSCRIPTIONS_EXAMPLES,
  ...LEDGER_EXAMPLES,
  ...PAYMENTS_EXAMPLES,
  ...SELLER_EXAMPLES,
  ...DASHBOARD_EXAMPLES,
};
