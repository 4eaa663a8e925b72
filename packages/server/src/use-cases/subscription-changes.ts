/**
 * The subscription use cases that move money or end service, as the subscriptions module's
 * routes and the portal ask for them (modules/subscriptions/ports.ts `SubscriptionWrites`),
 * and as the checkout and the payment recovery run their purchases inside the pipeline.
 */
import type { IntentRow } from '../modules/intents/queries.js';
import type { SubscriptionCancel, SubscriptionCreate, SubscriptionUpdate } from '@billow/contract';
import type { AnswerKeeper } from '../db/answer-keeper.js';
import type { Db } from '../db/connect.js';
import type { EntitlementChanges } from '../edge-cache/change-feed.js';
import type { Clock } from '../lib/clock.js';
import type { IdempotencyClaim } from '../modules/intents/claims.js';
import type { PurchaseExtras, PurchaseHooks } from '../modules/purchases/purchase.js';
import type { SubscriptionWrites } from '../modules/subscriptions/ports.js';
import { PENDING_UPDATE_TTL_MS, type SubscriptionScope } from '../modules/subscriptions/service.js';
import { Cancellation } from './cancel-subscription.js';
import { PlanChange } from './change-plan.js';
import type { PendingChangeCheckout, PendingChangePayment } from './plan-change-pending.js';
import { Subscribe } from './subscribe.js';

export class SubscriptionChanges implements SubscriptionWrites {
  private readonly subscribe: Subscribe;
  private readonly change: PlanChange;
  private readonly cancellation: Cancellation;

  constructor(
    db: Db,
    clock: Clock,
    pendingUpdateTtlMs: number = PENDING_UPDATE_TTL_MS,
    changes: EntitlementChanges | null = null,
    pendingCheckout: PendingChangeCheckout | null = null,
  ) {
    const writes = { db, changes };
    this.subscribe = new Subscribe(writes, clock);
    this.change = new PlanChange(writes, clock, pendingUpdateTtlMs, pendingCheckout);
    this.cancellation = new Cancellation(writes, clock);
  }

  create(scope: SubscriptionScope, input: SubscriptionCreate, idempotency: IdempotencyClaim | null = null) {
    return this.subscribe.create(scope, input, idempotency);
  }

  /** Completes a first payment's intent left processing (the recovery task, a provider's webhook). */
  completeCreate(intent: IntentRow, idempotency: IdempotencyClaim | null) {
    return this.subscribe.complete(intent, idempotency);
  }

  /** Subscribing as the checkout's purchase: planned, then recorded with its payment and the session's hooks. */
  subscribePlanner(scope: SubscriptionScope, input: SubscriptionCreate & PurchaseExtras, hooks: PurchaseHooks = {}) {
    return this.subscribe.planner(scope, input, hooks);
  }

  update(scope: SubscriptionScope, id: string, input: SubscriptionUpdate, idempotency: IdempotencyClaim | null = null) {
    return this.change.update(scope, id, input, idempotency);
  }

  previewUpdate(scope: SubscriptionScope, id: string, input: SubscriptionUpdate) {
    return this.change.preview(scope, id, input);
  }

  /** Completes a change's payment left processing (the recovery task, a provider's webhook). */
  completeUpdate(intent: IntentRow, idempotency: IdempotencyClaim | null) {
    return this.change.complete(intent, idempotency);
  }

  /** A pending change's payment as the hosted page takes it: planned, then the change activated with it. */
  pendingActivation(scope: SubscriptionScope, payment: PendingChangePayment, hooks: PurchaseHooks) {
    return this.change.pendingActivation(scope, payment, hooks);
  }

  cancel(scope: SubscriptionScope, id: string, input: SubscriptionCancel, reason?: 'CANCELLED_BY_MERCHANT' | 'CANCELLED_BY_CUSTOMER', keep?: AnswerKeeper) {
    return this.cancellation.cancel(scope, id, input, reason, keep);
  }
}
