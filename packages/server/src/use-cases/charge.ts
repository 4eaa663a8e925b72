import type { ChargeCreate, ChargeRecord } from '@billow/contract';
import type { Clock } from '../lib/clock.js';
import { testClockTimeOf } from '../modules/customers/queries.js';
import { currencyDigits, formatMinor } from '../lib/money.js';
import type { Db } from '../db/connect.js';
import type { Tx } from '../db/transaction.js';
import { grantedFeatures } from '../modules/purchases/features.js';
import { paymentMethodFor } from '../modules/purchases/payment.js';
import type { IntentRow } from '../modules/intents/queries.js';
import { completePlanned, plannedPurchase, purchasePlanned, type IdempotencyClaim, type Planned, type PlannedPurchase, type PurchasePlanner, type StoredRequest } from './planned-payment.js';
import {
  assertNotBlocked,
  lockCustomer,
  resolvePurchase,
  subscriptionValues,
  type PurchaseExtras,
  type PurchaseHooks,
  type PurchaseScope,
} from '../modules/purchases/purchase.js';
import { recordPaidOrder } from '../modules/purchases/record.js';
import type { EntitlementChanges } from '../edge-cache/change-feed.js';
import { insertSubscription } from '../modules/subscriptions/queries.js';
import { recurringChargePeriod } from '../modules/charges/errors.js';

/** What a one-time purchase was planned as, under its customer's lock. */
export interface ChargePlan {
  customer: Awaited<ReturnType<typeof lockCustomer>>;
  purchase: Awaited<ReturnType<typeof resolvePurchase>>;
  method: Awaited<ReturnType<typeof paymentMethodFor>>;
  /** The customer's time (a test clock's): the grant starts then, and the invoice is dated in its year. */
  now: Date;
}

export class ChargeService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly changes: EntitlementChanges | null = null,
  ) {}

  /**
   * A one-time purchase billed at once to the customer's saved method: no
   * checkout. It grants the plan's entitlements for good, through a
   * subscription record of chargePeriod ONE_TIME (no period end), which
   * GET /subscriptions/ lists with billingType ONE_TIME, as a free plan
   * taken through POST /subscriptions/create/ is. Its payment is planned as a
   * value, then recorded with its outcome (use-cases/planned-payment.ts).
   */
  async create(scope: PurchaseScope, input: ChargeCreate, idempotency: IdempotencyClaim | null = null): Promise<ChargeRecord> {
    if (input.chargePeriod !== 'ONE_TIME') {
      throw recurringChargePeriod(input.chargePeriod);
    }
    const record = await purchasePlanned(this.db, this.clock, this.purchase(scope, input, idempotency));
    this.changes?.forget(scope.environmentId, input.customerId);
    return record;
  }

  /** Completes a charge's intent whose process died, or whose provider answered later, as its request would have. */
  async complete(intent: IntentRow, idempotency: IdempotencyClaim | null): Promise<void> {
    const { scope, body } = intent.request as unknown as StoredRequest;
    await completePlanned(this.db, this.clock, intent, this.purchase(scope, body as unknown as ChargeCreate, idempotency));
  }

  private purchase(scope: PurchaseScope, input: ChargeCreate, idempotency: IdempotencyClaim | null): PlannedPurchase<ChargePlan, ChargeRecord & Record<string, unknown>> {
    const request = { scope, body: input as unknown as Record<string, unknown> };
    return plannedPurchase({ kind: 'charge', request, idempotency, status: 201 }, this.planner(scope, input));
  }

  /**
   * The one-time purchase planned under its customer's lock and recorded with its payment;
   * `hooks` let the checkout record its session in the same transaction (complete-checkout.ts).
   */
  planner(scope: PurchaseScope, input: ChargeCreate & PurchaseExtras, hooks: PurchaseHooks = {}): PurchasePlanner<ChargePlan, ChargeRecord & Record<string, unknown>> {
    return {
      plan: (tx) => this.plan(tx, scope, input),
      commit: async (tx, plan, chargeRef) => (await this.commit(tx, scope, plan, chargeRef, hooks)) as ChargeRecord & Record<string, unknown>,
    };
  }

  /** Loads the purchase under the customer's lock and plans its payment (none when free, or nothing to charge). Writes nothing. */
  private async plan(tx: Tx, scope: PurchaseScope, input: ChargeCreate & PurchaseExtras): Promise<Planned<ChargePlan>> {
    await assertNotBlocked(tx, scope.organizationId);
    const customer = await lockCustomer(tx, scope.environmentId, input.customerId);
    const purchase = await resolvePurchase(tx, scope, customer, input);
    const total = purchase.quote.totalMinor;
    const method = await paymentMethodFor(tx, scope, customer, total > 0);
    const now = (await testClockTimeOf(tx, customer.id)) ?? this.clock.now();
    const payment =
      total > 0 && method
        ? { method, amountMinor: total, currency: purchase.quote.currency, description: `${purchase.version.name} (one-time)`, planVersionId: purchase.version.id }
        : null;
    return { plan: { customer, purchase, method: total > 0 ? method : undefined, now }, payment };
  }

  /** Records the planned purchase, paid by `chargeRef` (null: nothing was charged): the grant, the order and its invoice. */
  private async commit(tx: Tx, scope: PurchaseScope, { customer, purchase, method, now }: ChargePlan, chargeRef: string | null, hooks: PurchaseHooks = {}): Promise<ChargeRecord> {
    await hooks.paid?.(tx, { customer, purchase, now });
    const granted = await insertSubscription(
      tx,
      subscriptionValues(scope, customer, purchase, { chargePeriod: 'ONE_TIME', status: 'active', now, periodEnd: null, trialEnd: null, paymentMethodId: method?.id ?? null }),
    );
    await this.changes?.announce(tx, scope.environmentId, customer.customer_id);
    const order = await recordPaidOrder(tx, {
      scope,
      now,
      customer,
      purchase,
      charged: purchase.quote,
      billingType: 'ONE_TIME',
      subscriptionId: null,
      method: method ?? null,
      chargeRef,
    });
    await hooks.recorded?.(tx, { subscriptionId: granted.id, orderId: order.orderId, invoiceId: order.invoiceId });
    return {
      id: granted.id,
      startDate: now.toISOString().slice(0, 10),
      endDate: null,
      billingPeriodStartTime: null,
      billingPeriodEndTime: null,
      amount: formatMinor(purchase.quote.totalMinor, currencyDigits(purchase.quote.currency)),
      recurrence: '',
      currency: purchase.quote.currency,
      status: 'active',
      product: { name: purchase.product.name, id: purchase.product.id, identifier: purchase.product.identifier },
      plan: { name: purchase.version.name, identifier: purchase.plan.identifier },
      features: await grantedFeatures(tx, purchase.version.id, purchase.quantities),
      trialDaysRemaining: 0,
      customerId: customer.customer_id,
      billingType: 'ONE_TIME',
      recurrenceUnit: null,
      recurrenceType: null,
      orderId: order.orderId,
      invoiceId: order.invoiceId,
    };
  }
}
