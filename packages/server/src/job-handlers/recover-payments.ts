import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import { DomainError, isOutage } from '../lib/domain-error.js';
import { entitlementAnnouncer } from '../edge-cache/change-feed.js';
import { staleIntentsOf, type IdempotencyClaim } from '../use-cases/planned-payment.js';
import type { IntentRow } from '../modules/intents/queries.js';
import { DEFAULT_DUNNING_RETRY_DAYS } from '../config.js';
import type { DunningSchedule } from '../modules/billing/renewal.compute.js';
import { BillingEngine } from '../use-cases/billing-engine.js';
import { ChargeService } from '../use-cases/charge.js';
import { CheckoutPurchases } from '../use-cases/complete-checkout.js';
import { RefundService } from '../modules/refunds/service.js';
import { RefundOrder } from '../use-cases/refund-order.js';
import { OrderPresenter } from '../modules/ledger/presenter.js';
import { SubscriptionChanges } from '../use-cases/subscription-changes.js';

/** How long an intent may stay processing before its process is taken for dead. */
export const STALE_INTENT_MS = 60_000;

function claimOf(intent: IntentRow): IdempotencyClaim | null {
  return intent.idempotency_scope && intent.idempotency_key ? { scope: intent.idempotency_scope, key: intent.idempotency_key } : null;
}

interface Settlers {
  charges: ChargeService;
  billing: BillingEngine;
  subscriptions: SubscriptionChanges;
  checkouts: CheckoutPurchases;
}

function settlers(db: Db, clock: Clock, pendingUpdateTtlMs: number, dunning: DunningSchedule): Settlers {
  return {
    charges: new ChargeService(db, clock, entitlementAnnouncer()),
    billing: new BillingEngine({ db, clock, changes: entitlementAnnouncer(), dunning }),
    subscriptions: new SubscriptionChanges(db, clock, pendingUpdateTtlMs, entitlementAnnouncer()),
    // The CSRF secret is never read here: only the purchase of a session runs again.
    checkouts: new CheckoutPurchases(db, clock, { pendingUpdateTtlMs }, entitlementAnnouncer()),
  };
}

/** Completes one processing intent as its request would have: the provider is asked under the intent's own key. */
async function completeProcessing(intent: IntentRow, { charges, billing, subscriptions, checkouts }: Settlers): Promise<void> {
  const claim = claimOf(intent);
  if (intent.kind === 'charge') await charges.complete(intent, claim);
  else if (intent.kind === 'subscription_create') await subscriptions.completeCreate(intent, claim);
  else if (intent.kind === 'checkout') await checkouts.recover(intent, claim);
  else if (intent.kind === 'renewal' || intent.kind === 'invoice_payment') await billing.completeStale(intent);
  else await subscriptions.completeUpdate(intent, claim);
}

/**
 * Completes the payments whose process died between recording the intent and settling
 * it: the provider is asked again under the intent's own key (so it charges once), and
 * the purchase is recorded, or the intent marked failed, as the request would have.
 */
export async function recoverPayments(
  db: Db,
  clock: Clock,
  pendingUpdateTtlMs: number,
  olderThanMs = STALE_INTENT_MS,
  dunning: DunningSchedule = DEFAULT_DUNNING_RETRY_DAYS,
) {
  const services = settlers(db, clock, pendingUpdateTtlMs, dunning);
  let settled = 0;
  const failures: string[] = [];
  for (const intent of await staleIntentsOf(db, clock, olderThanMs)) {
    try {
      await completeProcessing(intent, services);
      settled++;
    } catch (error) {
      // A refused payment is settled (failed) by completeIntent; anything else stays processing, retried next time.
      failures.push(`${intent.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { settled, failures };
}

/**
 * Settles one intent now, because its provider said how it ended (a Stripe webhook): the
 * same completion as the recovery task's, so the purchase is recorded once whoever comes
 * first. An answer that is an error of the purchase (declined, changed) is the settlement itself.
 */
export function intentSettler(db: Db, clock: Clock, pendingUpdateTtlMs: number, dunning: DunningSchedule): (intent: IntentRow) => Promise<void> {
  const services = settlers(db, clock, pendingUpdateTtlMs, dunning);
  return async (intent) => {
    try {
      await completeProcessing(intent, services);
    } catch (error) {
      if (!(error instanceof DomainError) || isOutage(error)) throw error;
    }
  };
}

/** Refunds whose process died between asking the provider and recording its answer, settled under their own keys. */
export async function recoverRefunds(db: Db, clock: Clock, olderThanMs = STALE_INTENT_MS): Promise<number> {
  // Settling records no presentation: image URLs are never asked for.
  const refunds = new RefundOrder(db, clock, new RefundService(db, new OrderPresenter({ publicUrl: () => '' })));
  return refunds.recoverStale(olderThanMs);
}
