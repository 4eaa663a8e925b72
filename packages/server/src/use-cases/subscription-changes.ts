import type { SubscriptionCancel, SubscriptionCreate, SubscriptionUpdate } from '@billow/contract';
import { clockAt, type Clock } from '../lib/clock.js';
import { testClockTimeOf } from '../modules/customers/queries.js';
import type { Db } from '../db/connect.js';
import { inTransaction, isUniqueViolation, type Tx } from '../db/transaction.js';
import { DomainError } from '../lib/domain-error.js';
import type { AnswerKeeper } from '../db/answer-keeper.js';
import { customerWebhookObject } from '../modules/ledger/webhook.js';
import { assertCanPay, chargeableMethod, paymentMethodFor, type PaymentStep } from '../modules/purchases/payment.js';
import { purchaseTwoPhase, type IdempotencyClaim } from './payment-pipeline.js';
import { assertNotBlocked, lockCustomer, resolvePurchase, subscriptionValues, type CustomerRow, type PurchaseExtras, type PurchaseHooks, type ResolvedPurchase } from '../modules/purchases/purchase.js';
import { recordPaidOrder } from '../modules/purchases/record.js';
import { assertProviderConfigured } from '../modules/payments/providers.js';
import { addPeriod, isRecurring } from '../modules/billing/billing-periods.compute.js';
import type { Quote } from '../modules/billing/types.js';
import { recordEvent } from '../modules/events/writer.js';
import { enqueueJob } from '../modules/jobs/service.js';
import { renewSubscription, type EngineDeps } from './renew-subscription.js';
import { commitChange, successorOf } from './plan-change-commit.js';
import { activatePendingChange, type PendingChangeCheckout, type PendingChangePayment } from './plan-change-pending.js';
import type { EntitlementChanges } from '../edge-cache/change-feed.js';
import * as repo from '../modules/subscriptions/queries.js';
import { EXPIRE_PENDING_UPDATE_JOB, PENDING_UPDATE_TTL_MS, type SubscriptionScope } from '../modules/subscriptions/service.js';
import { createNotRecurring, isNotNow, notCancellable, subscriptionNotFound, updateInProgress } from '../modules/subscriptions/errors.js';
import { assertChangeable, changeTerms, creditApplied } from '../modules/subscriptions/change.compute.js';
import { priceChange } from '../modules/subscriptions/change-pricing.js';
import { cancellationEnd } from '../modules/subscriptions/requests.compute.js';
import { presentCreated, subscriptionEventObject, subscriptionObject } from '../modules/subscriptions/view.js';
import { DAY_MS } from '../lib/time.js';

const LIVE = ['active', 'trialing', 'past_due'] as const;

const zeroQuote = (quote: Quote): Quote => ({ ...quote, lines: [], subtotalMinor: 0, discountMinor: 0, taxMinor: 0, totalMinor: 0 });

function productRef(purchase: ResolvedPurchase) {
  return { id: purchase.product.id, name: purchase.product.name };
}

function planRef(purchase: ResolvedPurchase) {
  return { name: purchase.version.name, version: purchase.version.version, identifier: purchase.plan.identifier };
}

/**
 * Subscribing, changing a plan and cancelling: the subscription use cases that move money
 * or end service, each through the payment pipeline (decision 0026).
 */
export class SubscriptionChanges {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly pendingUpdateTtlMs: number = PENDING_UPDATE_TTL_MS,
    private readonly changes: EntitlementChanges | null = null,
    private readonly pendingCheckout: PendingChangeCheckout | null = null,
  ) {}

  /** Runs a change of the customer's subscriptions, announcing it to every entitlement cache. */
  private async changing<T>(scope: SubscriptionScope, customerId: () => string | null, work: (tx: Tx) => Promise<T>): Promise<T> {
    const result = await inTransaction(this.db, async (tx) => {
      const value = await work(tx);
      const id = customerId();
      if (id && this.changes) await this.changes.announce(tx, scope.environmentId, id);
      return value;
    });
    const id = customerId();
    if (id) this.changes?.forget(scope.environmentId, id);
    return result;
  }

  /** Now, for the customer: the time of their test clock, if they live by one. */
  private async timeOf(tx: Tx, customer: CustomerRow): Promise<Date> {
    return (await testClockTimeOf(tx, customer.id)) ?? this.clock.now();
  }

  /** An event dated `at`: the customer's time (their test clock's, if they live by one). */
  private event(tx: Tx, scope: SubscriptionScope, at: Date, type: string, data: Record<string, unknown>, previous?: Record<string, unknown>) {
    return recordEvent(tx, {
      environmentId: scope.environmentId,
      organizationId: scope.organizationId,
      type,
      data,
      ...(previous ? { previousAttributes: previous } : {}),
      at,
    });
  }

  private subscriptionData(row: repo.SubscriptionRow, customer: CustomerRow, purchase: ResolvedPurchase, scope: SubscriptionScope) {
    return subscriptionObject(row, {
      plan: planRef(purchase),
      product: productRef(purchase),
      customer: customerWebhookObject(customer),
      organization: scope.organizationId,
      features: null,
    });
  }

  /** Subscribes a customer off-session: a trial or a free plan charges nothing now; otherwise the first period is charged. */
  async create(scope: SubscriptionScope, input: SubscriptionCreate, idempotency: IdempotencyClaim | null = null) {
    return purchaseTwoPhase(this.db, this.clock, {
      kind: 'subscription_create',
      request: { scope, body: input as unknown as Record<string, unknown> },
      idempotency,
      status: 201,
      run: (step) => this.createWith(scope, input, step),
    });
  }

  /** The subscription in one transaction, taking its first payment through `step` (use-cases/payment-pipeline.ts). */
  createWith(scope: SubscriptionScope, input: SubscriptionCreate & PurchaseExtras, step: PaymentStep, hooks: PurchaseHooks = {}) {
    return this.changing(scope, () => input.customerId, async (tx) => {
      await assertNotBlocked(tx, scope.organizationId);
      const customer = await lockCustomer(tx, scope.environmentId, input.customerId);
      const purchase = await resolvePurchase(tx, scope, customer, input);
      const free = purchase.price.priceType === 'FREE' || purchase.quote.totalMinor === 0;
      if (!isRecurring(input.chargePeriod) && !free) {
        throw createNotRecurring(input.chargePeriod);
      }
      const now = await this.timeOf(tx, customer);
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
      await this.event(tx, scope, now, 'subscription.created', this.subscriptionData(row, customer, purchase, scope));
      await hooks.recorded?.(tx, { subscriptionId: row.id, orderId: order.orderId, invoiceId: order.invoiceId });
      const created = await presentCreated(tx, row, scope.apiBase, now);
      await step.finish(tx, created);
      return created;
    });
  }

  /** Locks the customer, then the subscription: every money change of one customer runs alone. */
  private async lockLive(tx: Tx, scope: SubscriptionScope, id: string) {
    const found = await repo.findSubscription(tx, scope.environmentId, id);
    if (!found) throw subscriptionNotFound();
    const customer = await lockCustomer(tx, scope.environmentId, await repo.customerIdOf(tx, found.customer_id));
    const row = (await repo.findSubscription(tx, scope.environmentId, id, { forUpdate: true }))!;
    return { row, customer };
  }

  /**
   * The API cancels as the merchant; the portal as the customer (DOMAIN.md §3.6). A
   * cancellation for later is recorded now and takes effect then; one for now takes
   * effect at once as the billing engine's end does (decision 0048): the usage of the
   * period it cuts short is billed, then the subscription is canceled. `keep`: the
   * request's Idempotency-Key keeps the answer with the cancellation (decision 0051);
   * should the process die before the end runs, the engine's sweep runs it.
   */
  async cancel(
    scope: SubscriptionScope,
    id: string,
    input: SubscriptionCancel,
    reason: 'CANCELLED_BY_MERCHANT' | 'CANCELLED_BY_CUSTOMER' = 'CANCELLED_BY_MERCHANT',
    keep?: AnswerKeeper,
  ) {
    const answer = { message: 'Subscription cancellation processed successfully.' };
    let owner: string | null = null;
    const endsAt = await this.changing(scope, () => owner, async (tx) => {
      const { row, customer } = await this.lockLive(tx, scope, id);
      owner = customer.customer_id;
      if (!(LIVE as readonly string[]).includes(row.status)) {
        throw notCancellable(row.status);
      }
      const now = await this.timeOf(tx, customer);
      const endDate = cancellationEnd(input, row, now);
      const immediate = endDate.getTime() <= now.getTime();
      const updated = await repo.updateSubscription(tx, row.id, {
        end_date: immediate ? now : endDate,
        canceled_at: now,
        cancellation_reason: reason,
        cancellation_feedback: input.cancellationFeedback ?? null,
        cancellation_comment: input.cancellationComment ?? null,
        modified_at: now,
      });
      await keep?.keep(tx, answer);
      if (immediate) return now;
      await this.event(tx, scope, now, 'subscription.updated', await subscriptionEventObject(tx, updated, scope.organizationId), { end_date: null });
      return null;
    });
    if (endsAt) await this.endNow(scope, id, owner!, endsAt);
    return answer;
  }

  /** The end due now runs at once (renew-subscription.ts): its usage billed once, under the end's own key, then subscription.cancelled. */
  private async endNow(scope: SubscriptionScope, id: string, customerId: string, at: Date): Promise<void> {
    const deps: EngineDeps = {
      db: this.db,
      // An ended subscription's last invoice is not retried: no schedule is needed.
      dunning: [],
      announce: async (tx, environmentId, owner) => {
        await this.changes?.announce(tx, environmentId, owner);
      },
    };
    try {
      await renewSubscription(deps, clockAt(at), scope, id, { kind: 'end', at });
    } catch (error) {
      // The billing engine ended it meanwhile, or will (another payment of the customer is under way).
      if (!isNotNow(error)) throw error;
    } finally {
      this.changes?.forget(scope.environmentId, customerId);
    }
  }

  /**
   * A plan, period or quantity change makes a new subscription record and
   * supersedes the old one. Default: switch now and settle the difference for
   * the rest of the period (credit for the unused part of the old price, charge
   * for the new one; a negative net becomes customer credit).
   */
  async update(scope: SubscriptionScope, id: string, input: SubscriptionUpdate, idempotency: IdempotencyClaim | null = null) {
    return purchaseTwoPhase(this.db, this.clock, {
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
      return await this.changing(scope, () => owner, async (tx) => {
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
    const { row, customer } = await this.lockLive(tx, scope, id);
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
      await this.event(tx, scope, now, 'subscription.updated', this.subscriptionData(waiting, customer, purchase, scope), { status: null });
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
    return this.changing(scope, () => owner, async (tx) => {
      const result = await activatePendingChange(tx, scope, this.clock, payment, step, hooks);
      owner = result.customerId;
      const answer = { subscriptionId: result.subscriptionId };
      await step.finish(tx, answer);
      return answer;
    });
  }

}
