/**
 * Collecting an unpaid renewal invoice (decision 0029): a dunning attempt when it
 * falls due, or a payment asked for by hand. The intent's key is the invoice and
 * the attempt's number: one charge an attempt, whoever makes it. It runs through the
 * planned-payment pipeline: load under locks, plan the attempt, record it with its outcome.
 */
import type { Tx } from '../db/transaction.js';
import type { Clock } from '../lib/clock.js';
import type { PaymentOutcome, PaymentRequest } from '../modules/purchases/payment.js';
import { purchasePlanned } from './planned-payment.js';
import { lockCustomer, type PaymentMethodRow, type PurchaseScope } from '../modules/purchases/purchase.js';
import { recordCollectedInvoice, recordFailedCollection, stopCollecting, type Collection } from '../modules/purchases/unpaid-invoices.js';
import { isHardDecline, nextAttemptAt } from '../modules/billing/renewal.compute.js';
import { lockInvoice, unpaidInvoicesOf, type InvoiceRow } from '../modules/ledger/queries.js';
import { invoiceNotFound, invoiceNotPayable, renewalNotDue } from '../modules/subscriptions/errors.js';
import { endSubscription, environmentScope, subscriptionEvent } from '../modules/subscriptions/lifecycle.js';
import * as repo from '../modules/subscriptions/queries.js';
import type { EngineDeps } from './renew-subscription.js';
import { renewalMethod } from '../modules/subscriptions/renewal-terms.js';

export interface CollectionResult extends Record<string, unknown> {
  invoiceId: string;
  outcome: 'paid' | 'failed' | 'ended';
  code: string | null;
  message: string | null;
}

/** `due`: a dunning attempt scheduled for that instant; `manual`: asked for now, by the seller. */
export type CollectionTrigger = { kind: 'due'; at: Date } | { kind: 'manual' };

const UNPAID = ['OPEN', 'PAYMENT_FAILED'];

async function lockUnpaid(tx: Tx, environmentId: string, invoiceId: string, trigger: CollectionTrigger) {
  const found = await lockInvoice(tx, environmentId, invoiceId);
  if (!found?.subscription_id) throw invoiceNotFound(invoiceId);
  const customer = await lockCustomer(tx, environmentId, await repo.customerIdOf(tx, found.customer_id));
  const invoice = (await lockInvoice(tx, environmentId, invoiceId))!;
  const subscription = (await repo.findSubscription(tx, environmentId, invoice.subscription_id!, { forUpdate: true }))!;
  if (!UNPAID.includes(invoice.status)) {
    if (trigger.kind === 'manual') throw invoiceNotPayable(invoiceId, invoice.status);
    throw renewalNotDue();
  }
  if (trigger.kind === 'due' && invoice.next_attempt_at?.getTime() !== trigger.at.getTime()) throw renewalNotDue();
  return { invoice, customer, subscription };
}

/** Paid: the subscription is active again once none of its invoices is unpaid. */
async function afterPaid(tx: Tx, scope: PurchaseScope, subscription: repo.SubscriptionRow, now: Date): Promise<void> {
  if (subscription.status !== 'past_due' || (await unpaidInvoicesOf(tx, [subscription.id])).length > 0) return;
  const active = await repo.updateSubscription(tx, subscription.id, { status: 'active', modified_at: now });
  await subscriptionEvent(tx, scope, 'subscription.updated', active, { status: 'past_due' }, now);
}

/** What a collection loaded under its locks: the invoice, its subscription and customer, the card that pays. */
interface CollectionState {
  collection: Collection;
  subscription: repo.SubscriptionRow;
  method: PaymentMethodRow | undefined;
  live: boolean;
}

/** The attempt as a value: stop (the card was reported lost or stolen and nothing replaced it), or charge. */
interface CollectionPlan {
  action: 'stop' | 'charge';
  payment: PaymentRequest | null;
}

function planCollection({ collection, subscription, method }: CollectionState, trigger: CollectionTrigger): CollectionPlan {
  const { invoice } = collection;
  if (trigger.kind === 'due' && isHardDecline(invoice.failure_code) && method?.id === invoice.last_method_id) return { action: 'stop', payment: null };
  if (!method) return { action: 'charge', payment: null };
  const payment = { method, amountMinor: invoice.total_minor, currency: invoice.currency, description: `Invoice ${invoice.id}`, planVersionId: subscription.plan_version_id };
  return { action: 'charge', payment };
}

async function loadCollection(tx: Tx, deps: EngineDeps, clock: Clock, environmentId: string, invoiceId: string, trigger: CollectionTrigger): Promise<CollectionState> {
  const { invoice, customer, subscription } = await lockUnpaid(tx, environmentId, invoiceId, trigger);
  const scope = await environmentScope(tx, environmentId);
  const method = await renewalMethod(tx, subscription, customer);
  await deps.announce(tx, environmentId, customer.customer_id);
  const live = ['active', 'trialing', 'past_due'].includes(subscription.status);
  return { collection: { scope, now: clock.now(), customer, invoice }, subscription, method, live };
}

function attemptOf(outcome: PaymentOutcome): Attempt {
  if (outcome.kind === 'paid') return { paid: true, chargeRef: outcome.chargeRef };
  if (outcome.kind === 'refused') return { paid: false, code: outcome.code, message: outcome.message };
  return { paid: false, code: 'payment_method_required', message: 'The customer has no payment method that can be charged' };
}

/** Records the attempt: dunning stopped, the invoice paid, or its failure and the next retry (none left: the subscription ends). */
async function recordCollection(tx: Tx, deps: EngineDeps, state: CollectionState, plan: CollectionPlan, outcome: PaymentOutcome): Promise<CollectionResult> {
  const { collection, subscription, method, live } = state;
  const { invoice, scope, now } = collection;
  if (plan.action === 'stop') {
    await stopCollecting(tx, invoice, now);
    if (live) await endSubscription(tx, scope, subscription, now, 'CANCELLED_BY_PROVIDER');
    return { invoiceId: invoice.id, outcome: 'ended', code: invoice.failure_code, message: invoice.failure_message };
  }
  const attempt = attemptOf(outcome);
  if (attempt.paid) {
    await recordCollectedInvoice(tx, collection, { method: method!, chargeRef: attempt.chargeRef });
    await afterPaid(tx, scope, subscription, now);
    return { invoiceId: invoice.id, outcome: 'paid', code: null, message: null };
  }
  const failed = { attempts: invoice.attempt_count + 1, firstFailedAt: invoice.issued_at, failedAt: now, code: attempt.code };
  const next = nextAttemptAt(deps.dunning, failed);
  await recordFailedCollection(tx, collection, attempt, { at: next, methodId: method?.id ?? null });
  const ends = next === null && live;
  if (ends) await endSubscription(tx, scope, subscription, now, 'CANCELLED_BY_PROVIDER');
  return { invoiceId: invoice.id, outcome: ends ? 'ended' : 'failed', code: attempt.code, message: attempt.message };
}

type Attempt = { paid: true; chargeRef: string } | { paid: false; code: string; message: string };

/** One attempt to collect the invoice, through the payment pipeline. */
export function collectInvoice(deps: EngineDeps, clock: Clock, scope: PurchaseScope, invoice: Pick<InvoiceRow, 'id' | 'attempt_count'>, trigger: CollectionTrigger) {
  return purchasePlanned<{ state: CollectionState; plan: CollectionPlan }, CollectionResult>(deps.db, clock, {
    kind: 'invoice_payment',
    request: { scope, body: { invoiceId: invoice.id, trigger: trigger.kind, at: trigger.kind === 'due' ? trigger.at.toISOString() : null } },
    idempotency: { scope: `invoice:${scope.environmentId}`, key: `${invoice.id}:${invoice.attempt_count + 1}`, intentOnly: true },
    status: 200,
    plan: async (tx) => {
      const state = await loadCollection(tx, deps, clock, scope.environmentId, invoice.id, trigger);
      const plan = planCollection(state, trigger);
      return { plan: { state, plan }, payment: plan.payment };
    },
    commit: (tx, { state, plan }, outcome) => recordCollection(tx, deps, state, plan, outcome),
  });
}
