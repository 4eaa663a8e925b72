import type { SubscriptionCreate } from '@billow/contract';
import { clockAt, type Clock } from '../lib/clock.js';
import { paymentMethodFor, type PaymentStep } from '../modules/purchases/payment.js';
import { purchaseTwoPhase, type IdempotencyClaim } from './payment-pipeline.js';
import { assertNotBlocked, lockCustomer, resolvePurchase, subscriptionValues, type PurchaseExtras, type PurchaseHooks } from '../modules/purchases/purchase.js';
import { recordPaidOrder } from '../modules/purchases/record.js';
import { addPeriod, isRecurring } from '../modules/billing/billing-periods.compute.js';
import type { Quote } from '../modules/billing/types.js';
import * as repo from '../modules/subscriptions/queries.js';
import { type SubscriptionScope } from '../modules/subscriptions/service.js';
import { createNotRecurring } from '../modules/subscriptions/errors.js';
import { presentCreated } from '../modules/subscriptions/view.js';
import { DAY_MS } from '../lib/time.js';

import { changingSubscriptions, customerNow, subscriptionData, subscriptionEventAt, type WriteContext } from '../modules/subscriptions/writes.js';

const zeroQuote = (quote: Quote): Quote => ({ ...quote, lines: [], subtotalMinor: 0, discountMinor: 0, taxMinor: 0, totalMinor: 0 });

/** Subscribing a customer: through the API off-session, or as the checkout's purchase (`createWith`). */
export class Subscribe {
  constructor(
    private readonly writes: WriteContext,
    private readonly clock: Clock,
  ) {}

  /** Subscribes a customer off-session: a trial or a free plan charges nothing now; otherwise the first period is charged. */
  async create(scope: SubscriptionScope, input: SubscriptionCreate, idempotency: IdempotencyClaim | null = null) {
    return purchaseTwoPhase(this.writes.db, this.clock, {
      kind: 'subscription_create',
      request: { scope, body: input as unknown as Record<string, unknown> },
      idempotency,
      status: 201,
      run: (step) => this.createWith(scope, input, step),
    });
  }

  /** The subscription in one transaction, taking its first payment through `step` (use-cases/payment-pipeline.ts). */
  createWith(scope: SubscriptionScope, input: SubscriptionCreate & PurchaseExtras, step: PaymentStep, hooks: PurchaseHooks = {}) {
    return changingSubscriptions(this.writes, scope, () => input.customerId, async (tx) => {
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
      const chargeRef =
        chargeNow > 0 && method
          ? await step.charge(tx, {
              method,
              amountMinor: chargeNow,
              currency: purchase.quote.currency,
              description: `${purchase.version.name} (${input.chargePeriod})`,
              planVersionId: purchase.version.id,
            })
          : null;
      await hooks.paid?.(tx, { customer, purchase, now });
      const row = await repo.insertSubscription(
        tx,
        subscriptionValues(scope, customer, purchase, {
          chargePeriod: input.chargePeriod,
          status: trial ? 'trialing' : 'active',
          now,
          periodEnd,
          trialEnd,
          paymentMethodId: method?.id ?? null,
        }),
      );
      const order = await recordPaidOrder(tx, {
        scope,
        clock: clockAt(now),
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
      const created = await presentCreated(tx, row, scope.apiBase, now);
      await step.finish(tx, created);
      return created;
    });
  }
}
