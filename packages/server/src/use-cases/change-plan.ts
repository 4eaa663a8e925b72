import type { SubscriptionChangePreview, SubscriptionUpdate } from '@billow/contract';
import { changePreviewOf } from '../modules/subscriptions/view.js';
import { type Clock } from '../lib/clock.js';
import { testClockTimeOf } from '../modules/customers/queries.js';
import { inTransaction, isUniqueViolation, type Tx } from '../db/transaction.js';
import { assertCanPay, chargeableMethod, type PaymentOutcome } from '../modules/purchases/payment.js';
import type { IntentRow } from '../modules/intents/queries.js';
import { completePlanned, purchasePlanned, type IdempotencyClaim, type Planned, type PlannedPurchase, type PurchasePlanner, type StoredRequest } from './planned-payment.js';
import { type PurchaseHooks } from '../modules/purchases/purchase.js';
import { assertProviderConfigured } from '../modules/payments/providers.js';
import { enqueueJob } from '../modules/jobs/service.js';
import { commitChange, successorOf, type SettledChange } from './plan-change-commit.js';
import {
  commitPendingActivation,
  planPendingActivation,
  type PendingActivation,
  type PendingChangeCheckout,
  type PendingChangePayment,
} from './plan-change-pending.js';
import * as repo from '../modules/subscriptions/queries.js';
import { EXPIRE_PENDING_UPDATE_JOB, type SubscriptionScope } from '../modules/subscriptions/service.js';
import { updateInProgress } from '../modules/subscriptions/errors.js';
import { assertChangeable, changeTerms, creditApplied } from '../modules/subscriptions/change.compute.js';
import { priceChange } from '../modules/subscriptions/change-pricing.js';

import { lockLiveSubscription, subscriptionData, subscriptionEventAt, type WriteContext } from '../modules/subscriptions/writes.js';

/** What a change was planned as, under the subscription's lock. */
type ChangePlan = Omit<SettledChange, 'chargeRef' | 'pendingId'> & { input: SubscriptionUpdate; pending: boolean };

/** A change's answer: the record that follows, and where a change waiting for its payment is paid. */
type Changed = { subscriptionId: string } & Record<string, unknown>;

/** Whose entitlements a committed change changed: forgotten by the caches once it is committed. */
class ChangedCustomer {
  customerId: string | null = null;

  forget(writes: WriteContext, scope: SubscriptionScope): void {
    if (this.customerId) writes.changes?.forget(scope.environmentId, this.customerId);
  }
}

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
  async update(scope: SubscriptionScope, id: string, input: SubscriptionUpdate, idempotency: IdempotencyClaim | null = null): Promise<Changed> {
    const changed = new ChangedCustomer();
    const answer = await purchasePlanned(this.writes.db, this.clock, this.purchase(scope, id, input, idempotency, changed));
    changed.forget(this.writes, scope);
    return answer;
  }

  /** Completes a change's payment whose process died, or whose provider answered later, as its request would have. */
  async complete(intent: IntentRow, idempotency: IdempotencyClaim | null): Promise<void> {
    const { scope, body } = intent.request as unknown as StoredRequest;
    const { subscriptionId, ...input } = body as unknown as SubscriptionUpdate & { subscriptionId: string };
    const changed = new ChangedCustomer();
    const changing = { apiBase: '', ...scope } as SubscriptionScope;
    await completePlanned(this.writes.db, this.clock, intent, this.purchase(changing, subscriptionId, input, idempotency, changed));
    changed.forget(this.writes, changing);
  }

  private purchase(scope: SubscriptionScope, id: string, input: SubscriptionUpdate, idempotency: IdempotencyClaim | null, changed: ChangedCustomer): PlannedPurchase<ChangePlan, Changed> {
    return {
      kind: 'subscription_update',
      request: { scope, body: { ...input, subscriptionId: id } as unknown as Record<string, unknown> },
      idempotency,
      status: 200,
      plan: (tx, pricedAt) => this.plan(tx, scope, id, input, pricedAt),
      commit: async (tx, plan, outcome) => {
        const result = await this.commit(tx, scope, plan, outcome);
        changed.customerId = result.customerId;
        await this.writes.changes?.announce(tx, scope.environmentId, result.customerId);
        // With activate_on_payment, a change that waits for its payment also answers the page where it is paid.
        return { subscriptionId: result.subscriptionId, ...('checkout' in result ? result.checkout : {}) };
      },
    };
  }

  /** What the change would cost now, planned as the change itself is, with nothing charged or recorded. */
  async preview(scope: SubscriptionScope, id: string, input: SubscriptionUpdate): Promise<SubscriptionChangePreview> {
    const { plan } = await inTransaction(this.writes.db, (tx) => this.price(tx, scope, id, input, null));
    return changePreviewOf(plan.row, input, plan.terms, { fromCredit: plan.fromCredit, toCharge: plan.toCharge, newPlan: plan.purchase.plan.identifier });
  }

  /**
   * Loads the subscription under its lock and plans the change: its terms, what credit
   * pays, what is charged. Prorated at the moment the change was asked for (`pricedAt`),
   * however long its payment took. Writes nothing.
   */
  private async plan(tx: Tx, scope: SubscriptionScope, id: string, input: SubscriptionUpdate, pricedAt: Date | null): Promise<Planned<ChangePlan>> {
    const planned = await this.price(tx, scope, id, input, pricedAt);
    // A paid plan needs a provider even when nothing is due today: it renews.
    if (planned.plan.purchase.quote.totalMinor > 0) await assertProviderConfigured(tx, scope);
    if (planned.plan.toCharge > 0) assertCanPay(planned.plan.method);
    return planned;
  }

  /** The change priced: the same figures for the change and its preview (the preview skips only the checks that it can be paid). */
  private async price(tx: Tx, scope: SubscriptionScope, id: string, input: SubscriptionUpdate, pricedAt: Date | null): Promise<Planned<ChangePlan>> {
    const { row, customer } = await lockLiveSubscription(tx, scope, id);
    assertChangeable(row, input);
    const now = (await testClockTimeOf(tx, customer.id)) ?? pricedAt ?? this.clock.now();
    const { purchase, pricing, discount } = await priceChange(tx, scope, customer, row, input, now);
    const method = await chargeableMethod(tx, scope, customer);
    const terms = changeTerms(row, input, pricing, now);
    const fromCredit = creditApplied(terms, customer.credit_minor);
    const toCharge = terms.dueMinor - fromCredit;
    const successor = successorOf(scope, { row, customer, purchase, input, terms, now, method });
    const pending = input.paymentBehavior === 'activate_on_payment' && toCharge > 0;
    const payment =
      toCharge > 0 && method
        ? { method, amountMinor: toCharge, currency: row.currency, description: `${purchase.version.name}: change of plan`, planVersionId: purchase.version.id }
        : null;
    return { plan: { row, customer, purchase, successor, now, fromCredit, toCharge, terms, method, discount, input, pending }, payment };
  }

  /** Records the planned change with its payment's outcome: in effect, or (activate_on_payment, unpaid) waiting for its payment. */
  private async commit(tx: Tx, scope: SubscriptionScope, plan: ChangePlan, outcome: PaymentOutcome) {
    // activate_on_payment: a refused payment leaves the change waiting for one.
    if (outcome.kind === 'refused' && !plan.pending) throw outcome.error;
    const chargeRef = outcome.kind === 'paid' ? outcome.chargeRef : null;
    try {
      if (plan.pending && chargeRef === null) return await this.awaitPayment(tx, scope, plan);
      return await commitChange(tx, scope, { ...plan, chargeRef });
    } catch (error) {
      if (isUniqueViolation(error, repo.LIVE_SUCCESSOR_INDEX)) throw updateInProgress();
      throw error;
    }
  }

  /** The change waits for its payment on a hosted page; the current subscription stays as it is. */
  private async awaitPayment(tx: Tx, scope: SubscriptionScope, { successor, customer, purchase, input, toCharge, row, now }: ChangePlan) {
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

  /**
   * The payment of a pending activate_on_payment change, taken on the hosted page: planned
   * under the locks, and the change activated with it (plan-change-pending.ts); `hooks` let
   * the page record its session in the same transaction.
   */
  pendingActivation(scope: SubscriptionScope, payment: PendingChangePayment, hooks: PurchaseHooks): PurchasePlanner<PendingActivation, Changed> {
    return {
      plan: (tx) => planPendingActivation(tx, scope, this.clock, payment),
      commit: async (tx, plan, chargeRef) => {
        const result = await commitPendingActivation(tx, scope, plan, chargeRef, hooks);
        await this.writes.changes?.announce(tx, scope.environmentId, result.customerId);
        return { subscriptionId: result.subscriptionId };
      },
    };
  }

}
