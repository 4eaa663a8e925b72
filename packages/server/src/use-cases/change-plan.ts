import type { SubscriptionUpdate } from '@billow/contract';
import { type Clock } from '../lib/clock.js';
import { testClockTimeOf } from '../modules/customers/queries.js';
import { isUniqueViolation, type Tx } from '../db/transaction.js';
import { DomainError } from '../lib/domain-error.js';
import { assertCanPay, chargeableMethod, type PaymentStep } from '../modules/purchases/payment.js';
import { purchaseTwoPhase, type IdempotencyClaim } from './payment-pipeline.js';
import { type PurchaseHooks } from '../modules/purchases/purchase.js';
import { assertProviderConfigured } from '../modules/payments/providers.js';
import { enqueueJob } from '../modules/jobs/service.js';
import { commitChange, successorOf } from './plan-change-commit.js';
import { activatePendingChange, type PendingChangeCheckout, type PendingChangePayment } from './plan-change-pending.js';
import * as repo from '../modules/subscriptions/queries.js';
import { EXPIRE_PENDING_UPDATE_JOB, type SubscriptionScope } from '../modules/subscriptions/service.js';
import { updateInProgress } from '../modules/subscriptions/errors.js';
import { assertChangeable, changeTerms, creditApplied } from '../modules/subscriptions/change.compute.js';
import { priceChange } from '../modules/subscriptions/change-pricing.js';

import { changingSubscriptions, lockLiveSubscription, subscriptionData, subscriptionEventAt, type WriteContext } from '../modules/subscriptions/writes.js';

/**
 * Changing a subscription's plan, period or quantities: paid at once, or, with
 * activate_on_payment, waiting for its payment on a hosted page (plan-change-pending.ts).
 */
export class PlanChange {
  constructor(
    private readonly writes: WriteContext,
    private readonly clock: Clock,
    private readonly pendingUpdateTtlMs: number,
    private readonly pendingCheckout: PendingChangeCheckout | null,
  ) {}

  /**
   * A plan, period or quantity change makes a new subscription record and
   * supersedes the old one. Default: switch now and settle the difference for
   * the rest of the period (credit for the unused part of the old price, charge
   * for the new one; a negative net becomes customer credit).
   */
  async update(scope: SubscriptionScope, id: string, input: SubscriptionUpdate, idempotency: IdempotencyClaim | null = null) {
    return purchaseTwoPhase(this.writes.db, this.clock, {
      kind: 'subscription_update',
      request: { scope, body: { ...input, subscriptionId: id } as unknown as Record<string, unknown> },
      idempotency,
      status: 200,
      run: (step) => this.updateWith(scope, id, input, step),
    });
  }

  /** The change in one transaction, taking its payment through `step` (use-cases/payment-pipeline.ts). */
  async updateWith(scope: SubscriptionScope, id: string, input: SubscriptionUpdate, step: PaymentStep) {
    try {
      let owner: string | null = null;
      return await changingSubscriptions(this.writes, scope, () => owner, async (tx) => {
        const result = await this.applyUpdate(tx, scope, id, input, step);
        owner = result.customerId;
        // With activate_on_payment, a change that waits for its payment also answers the page where it is paid.
        const answer = { subscriptionId: result.subscriptionId, ...('checkout' in result ? result.checkout : {}) };
        await step.finish(tx, answer);
        return answer;
      });
    } catch (error) {
      if (isUniqueViolation(error, repo.LIVE_SUCCESSOR_INDEX)) {
        throw updateInProgress();
      }
      throw error;
    }
  }

  private async applyUpdate(tx: Tx, scope: SubscriptionScope, id: string, input: SubscriptionUpdate, step: PaymentStep) {
    const { row, customer } = await lockLiveSubscription(tx, scope, id);
    assertChangeable(row, input);
    // Prorated at the moment the change was asked for, however long its payment took.
    const now = (await testClockTimeOf(tx, customer.id)) ?? step.pricedAt ?? this.clock.now();
    const { purchase, pricing, discount } = await priceChange(tx, scope, customer, row, input, now);
    const method = await chargeableMethod(tx, scope, customer);
    const terms = changeTerms(row, input, pricing, now);
    const fromCredit = creditApplied(terms, customer.credit_minor);
    const toCharge = terms.dueMinor - fromCredit;
    // A paid plan needs a provider even when nothing is due today: it renews.
    if (purchase.quote.totalMinor > 0) await assertProviderConfigured(tx, scope);
    if (toCharge > 0) assertCanPay(method);

    const successor = successorOf(scope, { row, customer, purchase, input, terms, now, method });

    const pending = input.paymentBehavior === 'activate_on_payment' && toCharge > 0;
    let chargeRef: string | null = null;
    if (toCharge > 0 && method) {
      try {
        chargeRef = await step.charge(tx, {
          method,
          amountMinor: toCharge,
          currency: row.currency,
          description: `${purchase.version.name}: change of plan`,
          planVersionId: purchase.version.id,
        });
      } catch (error) {
        // activate_on_payment: a refused payment leaves the change waiting for one.
        if (!pending || !(error instanceof DomainError)) throw error;
      }
    }
    if (pending && chargeRef === null) {
      // The change waits for its payment; the current subscription stays as it is.
      const expiresAt = new Date(now.getTime() + this.pendingUpdateTtlMs);
      const waiting = await repo.insertSubscription(tx, { ...successor, status: 'incomplete', pending_expires_at: expiresAt });
      // On a test clock the change expires when the clock passes its time (test-clocks/service.ts), not in real time.
      if (!customer.test_clock_id) {
        await enqueueJob(tx, {
          name: EXPIRE_PENDING_UPDATE_JOB,
          payload: { environmentId: scope.environmentId, subscriptionId: waiting.id },
          runAt: expiresAt,
          key: `expire-pending-update:${waiting.id}`,
        });
      }
      // A new record taking its first status: previous status null, as in the reference's subscription.updated example.
      await subscriptionEventAt(tx, scope, now, 'subscription.updated', subscriptionData(waiting, customer, purchase, scope), { status: null });
      const change = { subscriptionId: waiting.id, customer, input, amountMinor: toCharge, currency: row.currency, productId: purchase.product.id, expiresAt, askedAt: now };
      const checkout = this.pendingCheckout ? await this.pendingCheckout(tx, scope, change) : null;
      return { subscriptionId: waiting.id, customerId: customer.customer_id, checkout: checkout ?? {} };
    }
    const settled = { row, customer, purchase, successor, now, fromCredit, toCharge, terms, method, chargeRef, discount };
    return commitChange(tx, scope, settled);
  }

  /** The payment of a pending activate_on_payment change, taken on the hosted page (plan-change-pending.ts). */
  activatePendingWith(scope: SubscriptionScope, payment: PendingChangePayment, step: PaymentStep, hooks: PurchaseHooks) {
    let owner: string | null = null;
    return changingSubscriptions(this.writes, scope, () => owner, async (tx) => {
      const result = await activatePendingChange(tx, scope, this.clock, payment, step, hooks);
      owner = result.customerId;
      const answer = { subscriptionId: result.subscriptionId };
      await step.finish(tx, answer);
      return answer;
    });
  }
}
