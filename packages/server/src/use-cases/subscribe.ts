import type { SubscriptionCreate } from '@billow/contract';
import type { Clock } from '../lib/clock.js';
import { paymentMethodFor } from '../modules/purchases/payment.js';
import type { IntentRow } from '../modules/intents/queries.js';
import { completePlanned, plannedPurchase, purchasePlanned, type IdempotencyClaim, type Planned, type PlannedPurchase, type PurchasePlanner, type StoredRequest } from './planned-payment.js';
import type { Tx } from '../db/transaction.js';
import { assertNotBlocked, lockCustomer, resolvePurchase, subscriptionValues, type PurchaseExtras, type PurchaseHooks } from '../modules/purchases/purchase.js';
import { recordPaidOrder } from '../modules/purchases/record.js';
import { addPeriod, isRecurring } from '../modules/billing/billing-periods.compute.js';
import type { Quote } from '../modules/billing/types.js';
import * as repo from '../modules/subscriptions/queries.js';
import { type SubscriptionScope } from '../modules/subscriptions/service.js';
import { createNotRecurring } from '../modules/subscriptions/errors.js';
import { presentCreated } from '../modules/subscriptions/view.js';
import { DAY_MS } from '../lib/time.js';

import { customerNow, subscriptionData, subscriptionEventAt, type WriteContext } from '../modules/subscriptions/writes.js';

type Created = Awaited<ReturnType<typeof presentCreated>> & Record<string, unknown>;

const zeroQuote = (quote: Quote): Quote => ({ ...quote, lines: [], subtotalMinor: 0, discountMinor: 0, taxMinor: 0, totalMinor: 0 });

/** What a subscription was planned as, under its customer's lock. */
export interface SubscribePlan {
  customer: Awaited<ReturnType<typeof lockCustomer>>;
  purchase: Awaited<ReturnType<typeof resolvePurchase>>;
  method: Awaited<ReturnType<typeof paymentMethodFor>>;
  /** The customer's time (a test clock's). */
  now: Date;
  trial: boolean;
  trialEnd: Date | null;
  periodEnd: Date | null;
  /** What the first payment takes now: nothing for a trial or a free plan. */
  chargeNow: number;
}

/** Subscribing a customer: through the API off-session, or as the checkout's purchase (`planner`). */
export class Subscribe {
  constructor(
    private readonly writes: WriteContext,
    private readonly clock: Clock,
  ) {}

  /**
   * Subscribes a customer off-session: a trial or a free plan charges nothing now; otherwise
   * the first period is charged. Its payment is planned as a value, then recorded with its
   * outcome (use-cases/planned-payment.ts).
   */
  async create(scope: SubscriptionScope, input: SubscriptionCreate, idempotency: IdempotencyClaim | null = null) {
    const created = await purchasePlanned(this.writes.db, this.clock, this.purchase(scope, input, idempotency));
    this.writes.changes?.forget(scope.environmentId, input.customerId);
    return created;
  }

  /** Completes a subscription's first payment whose process died, or whose provider answered later, as its request would have. */
  async complete(intent: IntentRow, idempotency: IdempotencyClaim | null): Promise<void> {
    const { scope, body } = intent.request as unknown as StoredRequest;
    const input = body as unknown as SubscriptionCreate;
    await completePlanned(this.writes.db, this.clock, intent, this.purchase({ apiBase: '', ...scope } as SubscriptionScope, input, idempotency));
    this.writes.changes?.forget(scope.environmentId, input.customerId);
  }

  private purchase(scope: SubscriptionScope, input: SubscriptionCreate, idempotency: IdempotencyClaim | null): PlannedPurchase<SubscribePlan, Created> {
    const request = { scope, body: input as unknown as Record<string, unknown> };
    return plannedPurchase({ kind: 'subscription_create', request, idempotency, status: 201 }, this.planner(scope, input));
  }

  /**
   * The subscription planned under its customer's lock and recorded with its first payment;
   * `hooks` let the checkout record its session in the same transaction (complete-checkout.ts).
   */
  planner(scope: SubscriptionScope, input: SubscriptionCreate & PurchaseExtras, hooks: PurchaseHooks = {}): PurchasePlanner<SubscribePlan, Created> {
    return {
      plan: (tx) => this.plan(tx, scope, input),
      commit: async (tx, plan, chargeRef) => {
        const created = await this.commit(tx, scope, input, plan, chargeRef, hooks);
        await this.writes.changes?.announce(tx, scope.environmentId, input.customerId);
        return created;
      },
    };
  }

  /** Loads the purchase under the customer's lock and plans the first period and its payment. Writes nothing. */
  private async plan(tx: Tx, scope: SubscriptionScope, input: SubscriptionCreate & PurchaseExtras): Promise<Planned<SubscribePlan>> {
    await assertNotBlocked(tx, scope.organizationId);
    const customer = await lockCustomer(tx, scope.environmentId, input.customerId);
    const purchase = await resolvePurchase(tx, scope, customer, input);
    const free = purchase.price.priceType === 'FREE' || purchase.quote.totalMinor === 0;
    if (!isRecurring(input.chargePeriod) && !free) {
      throw createNotRecurring(input.chargePeriod);
    }
    const now = await customerNow(tx, customer, this.clock);
    const recurring = isRecurring(input.chargePeriod);
    const trial = recurring && purchase.price.freeTrial && purchase.price.trialPeriod > 0 && !free;
    const method = await paymentMethodFor(tx, scope, customer, !free);
    const trialEnd = trial ? new Date(now.getTime() + purchase.price.trialPeriod * DAY_MS) : null;
    const periodEnd = trialEnd ?? (recurring ? addPeriod(now, input.chargePeriod) : null);
    const chargeNow = trial || free ? 0 : purchase.quote.totalMinor;
    const payment =
      chargeNow > 0 && method
        ? { method, amountMinor: chargeNow, currency: purchase.quote.currency, description: `${purchase.version.name} (${input.chargePeriod})`, planVersionId: purchase.version.id }
        : null;
    return { plan: { customer, purchase, method, now, trial, trialEnd, periodEnd, chargeNow }, payment };
  }

  /** Records the planned subscription, its first period paid by `chargeRef` (null: nothing charged). */
  private async commit(tx: Tx, scope: SubscriptionScope, input: SubscriptionCreate, plan: SubscribePlan, chargeRef: string | null, hooks: PurchaseHooks = {}) {
    const { customer, purchase, method, now, trial, trialEnd, periodEnd, chargeNow } = plan;
    await hooks.paid?.(tx, { customer, purchase, now });
    const row = await repo.insertSubscription(
      tx,
      subscriptionValues(scope, customer, purchase, { chargePeriod: input.chargePeriod, status: trial ? 'trialing' : 'active', now, periodEnd, trialEnd, paymentMethodId: method?.id ?? null }),
    );
    const order = await recordPaidOrder(tx, {
      scope,
      now,
      customer,
      purchase,
      charged: chargeNow > 0 ? purchase.quote : zeroQuote(purchase.quote),
      billingType: 'SUBSCRIPTION',
      subscriptionId: row.id,
      isTrial: trial,
      method: chargeNow > 0 ? (method ?? null) : null,
      chargeRef,
      linePeriods: { service: periodEnd ? { start: now, end: periodEnd } : null },
    });
    await subscriptionEventAt(tx, scope, now, 'subscription.created', subscriptionData(row, customer, purchase, scope));
    await hooks.recorded?.(tx, { subscriptionId: row.id, orderId: order.orderId, invoiceId: order.invoiceId });
    return presentCreated(tx, row, scope.apiBase, now);
  }
}
