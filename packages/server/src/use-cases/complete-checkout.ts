/**
 * The purchase a checkout session sells, once its page made it processing as attempt N
 * (checkout-page.ts, pay-due-invoice.ts): planned as a value by the use case that buys
 * it (subscribing, a one-time charge, activating a pending change) and paid on the
 * planned pipeline (planned-payment.ts), on-session (the card may ask for
 * authentication), under the idempotency claim `checkout:{session}:{N}`: a replayed
 * form finds the same intent and never charges twice; a declined attempt N leaves N+1 a
 * new payment. In the purchase's own transaction, once the payment is taken, the session
 * becomes success and `checkout.completed` is recorded, before the purchase records its
 * order, invoice and `subscription.created`.
 */
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { inTransaction, type Tx } from '../db/transaction.js';
import type { EntitlementChanges } from '../edge-cache/change-feed.js';
import { completePlanned, confirmPlanned, plannedPurchase, purchasePlanned, type IdempotencyClaim, type PlannedPurchase, type PurchasePlanner } from './planned-payment.js';
import type { PurchaseHooks } from '../modules/purchases/purchase.js';
import { DomainError } from '../lib/domain-error.js';
import type { Clock } from '../lib/clock.js';
import { ChargeService } from './charge.js';
import { recordEvent } from '../modules/events/writer.js';
import { intentOfIdempotencyKey, type IntentRow } from '../modules/intents/queries.js';
import { SubscriptionChanges } from './subscription-changes.js';
import { discountOfSession, redeemSessionDiscount } from '../modules/checkout/discount.js';
import { changePlanner } from './pay-due-invoice.js';
import { sessionSettledMeanwhile } from '../modules/checkout/errors.js';
import { promotionOfSession } from '../modules/checkout/promotion.js';
import { overrideOf } from '../modules/checkout/page-model.js';
import * as repo from '../modules/checkout/queries.js';
import { timeline } from '../modules/checkout/service.js';
import { completedEventObject } from '../modules/checkout/view.js';


type Answer = Record<string, unknown>;

/** What a session's purchase was planned as: the use case that buys it (subscribe, charge, activate a change), and its plan. */
interface SessionPlan {
  planner: PurchasePlanner<unknown, Answer>;
  plan: unknown;
}

export class CheckoutPurchases {
  private readonly subscriptions: SubscriptionChanges;
  private readonly charges: ChargeService;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    config: Pick<Config, 'pendingUpdateTtlMs'>,
    private readonly changes: EntitlementChanges | null = null,
  ) {
    this.subscriptions = new SubscriptionChanges(db, clock, config.pendingUpdateTtlMs, changes);
    this.charges = new ChargeService(db, clock, changes);
  }

  /** Step 2: the purchase of a processing session on the planned pipeline, on-session, under the attempt's claim. */
  async payProcessing(session: repo.SessionRow): Promise<unknown> {
    try {
      return await purchasePlanned(this.db, this.clock, this.purchaseOf(session, { onSession: true }));
    } finally {
      this.forgetBuyer(session);
    }
  }

  /** The buyer answered the card's authentication step of the session's waiting payment: confirmed or failed at the provider, then recorded. */
  async confirmWaiting(session: repo.SessionRow, intent: IntentRow, approved: boolean): Promise<unknown> {
    try {
      return await confirmPlanned(this.db, this.clock, intent, approved, this.purchaseOf(session, { onSession: true }));
    } finally {
      this.forgetBuyer(session);
    }
  }

  /** A purchase changed what the buyer may use: this process's caches forget it (other processes hear it from the commit). */
  private forgetBuyer(session: repo.SessionRow): void {
    if (session.customer_ref) this.changes?.forget(session.environment_id, session.customer_ref);
  }

  /**
   * The purchase of a processing session, as the planned pipeline runs it: planned under its
   * locks by the use case that buys it, the session recorded in the same transaction as the
   * purchase (`hooks`). `idempotency`: the attempt's claim unless told (the recovery task
   * passes the intent's own).
   */
  private purchaseOf(session: repo.SessionRow, run: { onSession: boolean; idempotency?: IdempotencyClaim | null }): PlannedPurchase<SessionPlan, Answer> {
    const [scope, key] = claimOf(session);
    const planner: PurchasePlanner<SessionPlan, Answer> = {
      plan: async (tx) => {
        const bought = await this.plannerOf(tx, session.id);
        const { plan, payment } = await bought.plan(tx);
        return { plan: { planner: bought, plan }, payment };
      },
      commit: (tx, { planner: bought, plan }, chargeRef) => bought.commit(tx, plan, chargeRef),
    };
    const owner = {
      kind: 'checkout' as const,
      request: { scope: { ...scopeOfSession(session), apiBase: session.api_base }, body: { sessionId: session.id } },
      idempotency: run.idempotency === undefined ? { scope, key } : run.idempotency,
      status: 303,
      onSession: run.onSession,
    };
    return plannedPurchase(owner, planner);
  }

  /** The use case that buys what a processing session sells, with the session's hooks: a subscription, a one-time purchase, or a pending change activated. */
  private async plannerOf(tx: Tx, sessionId: string): Promise<PurchasePlanner<unknown, Answer>> {
    const session = (await repo.findSession(tx, sessionId))!;
    if (session.purpose === 'subscription_change') return changePlanner(this.subscriptions, this.clock, session) as PurchasePlanner<unknown, Answer>;
    const scope = { ...scopeOfSession(session), apiBase: session.api_base };
    const input = {
      planIdentifier: session.plan_identifier,
      chargePeriod: session.charge_period,
      customerId: session.customer_ref!,
      features: session.features,
      currencyCode: session.currency_code,
      ipAddress: session.ip_address,
      priceOverride: overrideOf(session),
      discount: await discountOfSession(tx, session, session.plan_identifier, this.clock.now()),
      promotion: promotionOfSession(session),
    };
    const hooks = this.hooks(session);
    const planner = session.charge_period === 'ONE_TIME' ? this.charges.planner(scope, input, hooks) : this.subscriptions.subscribePlanner(scope, input, hooks);
    return planner as PurchasePlanner<unknown, Answer>;
  }

  /** Step 3, inside the purchase's transaction: the session succeeds, announced before the purchase's own events. */
  private hooks(session: repo.SessionRow): PurchaseHooks {
    let buyer: { customerId: string; discountedFirstPayment: boolean } | null = null;
    return {
      paid: async (tx, { customer, purchase, now }) => {
        const locked = (await repo.findSession(tx, session.id, { forUpdate: true }))!;
        // Another completer of this payment (a second submission, the recovery task) recorded it first:
        // an DomainError makes the pipeline answer with that one's result instead of recording twice.
        if (locked.status !== 'processing' || locked.attempt !== session.attempt) throw sessionSettledMeanwhile(session.id);
        // A promotion that won over the code leaves the code unredeemed (they never stack: decision 0036).
        buyer = purchase.promotion ? null : { customerId: customer.id, discountedFirstPayment: purchase.quote.discountMinor > 0 };
        const done = await repo.updateSession(tx, session.id, {
          status: 'success',
          amount_minor: purchase.quote.totalMinor,
          currency: purchase.quote.currency,
          completed_at: now,
          modified_at: now,
        });
        await timeline(tx, session.id, 'checkout_session.payment_succeeded', 'Payment succeeded', 'success', now, { amountUnits: purchase.quote.totalMinor, currency: purchase.quote.currency });
        await recordEvent(tx, {
          environmentId: session.environment_id,
          organizationId: session.organization_id,
          type: 'checkout.completed',
          data: completedEventObject(done, {
            customer,
            plan: { name: purchase.version.name, version: purchase.version.version, identifier: purchase.plan.identifier },
            product: { id: purchase.product.id, name: purchase.product.name },
            amountMinor: purchase.quote.totalMinor,
            currency: purchase.quote.currency,
            features: Object.keys(purchase.quantities).length > 0 ? purchase.quantities : null,
            organization: session.organization_id,
            at: now,
          }),
          at: now,
        });
      },
      recorded: async (tx, ids) => {
        await repo.updateSession(tx, session.id, { order_id: ids.orderId, invoice_id: ids.invoiceId, subscription_id: ids.subscriptionId });
        // Counted once, with what it paid for: a code exhausted meanwhile fails the purchase, and the payment goes back.
        if (buyer) await redeemSessionDiscount(tx, session, { ...buyer, subscriptionId: ids.subscriptionId, orderId: ids.orderId, now: this.clock.now() });
      },
    };
  }

  /**
   * The recovery task's completion of a checkout payment whose process stopped (or whose
   * buyer never answered the authentication step): recorded, or failed and the session open again.
   */
  async recover(intent: IntentRow, idempotency: IdempotencyClaim | null): Promise<void> {
    const sessionId = String((intent.request as { body?: { sessionId?: unknown } }).body?.sessionId);
    const session = await repo.findSession(this.db, sessionId);
    if (!session) throw new Error(`intent ${intent.id} pays checkout session ${sessionId}, which does not exist`);
    try {
      await completePlanned(this.db, this.clock, intent, this.purchaseOf(session, { onSession: false, idempotency }));
    } catch (error) {
      if (error instanceof DomainError) await this.attemptFailed((await repo.findSession(this.db, sessionId)) ?? session, error);
      throw error;
    } finally {
      this.forgetBuyer(session);
    }
  }

  /** A refused payment: the session is open again for another card, and its timeline says why. */
  async attemptFailed(session: repo.SessionRow, error: DomainError): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      const locked = await repo.findSession(tx, session.id, { forUpdate: true });
      if (!locked || locked.status !== 'processing' || locked.attempt !== session.attempt) return;
      // A payment still processing (the provider did not answer) may yet succeed: the session
      // stays processing for the recovery task, never open for a second payment meanwhile.
      if ((await intentOfIdempotencyKey(tx, ...claimOf(locked)))?.status === 'processing') return;
      const now = this.clock.now();
      await repo.updateSession(tx, session.id, { status: 'open', modified_at: now });
      await timeline(tx, session.id, 'checkout_session.payment_failed', 'Payment failed', 'failed', now, { code: error.code, detail: error.detail });
    });
  }
}

/** The idempotency claim of a session's current attempt: a replayed form pays the same intent, a new attempt a new one. */
export function claimOf(session: repo.SessionRow): [string, string] {
  return [`checkout:${session.environment_id}`, `${session.id}:${session.attempt}`];
}

export function scopeOfSession(session: repo.SessionRow) {
  return {
    organizationId: session.organization_id,
    environmentId: session.environment_id,
    environment: (session.environment) as 'sandbox' | 'production',
  };
}
