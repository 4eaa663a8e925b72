/**
 * Paying what is owed on the hosted page (decision 0035), in the steps of a checkout:
 *
 *   1. one transaction locks the session, saves the card as the customer's default
 *      method and marks the session processing, as attempt N;
 *   2. the payment runs through the path that owns it: a pending change planned and paid on
 *      the planned pipeline, on-session, under the claim `checkout:{session}:{N}` (so it
 *      activates as a change paid at once, card authentication included); an invoice through the
 *      billing engine's collection, as `POST /invoices/{id}/pay/` does (its own claim
 *      is the invoice's attempt: a replayed form never charges twice);
 *   3. the session succeeds in the payment's transaction (a change) or right after it.
 */
import { sellerOnPages } from '../modules/seller-profile/queries.js';
import type { SubscriptionUpdate } from '@billow/contract';
import type { Db } from '../db/connect.js';
import { inTransaction, type Tx } from '../db/transaction.js';
import { AuthenticationRequired } from './planned-payment.js';
import type { PurchaseHooks, PurchaseScope } from '../modules/purchases/purchase.js';
import { DomainError, isOutage } from '../lib/domain-error.js';
import type { Clock } from '../lib/clock.js';
import { findProduct } from '../modules/catalog/queries.js';
import { ensureCheckoutCustomer } from '../modules/customers/service.js';
import { intentOfIdempotencyKey, type IntentRow } from '../modules/intents/queries.js';
import { isPaymentInProgress } from '../modules/intents/errors.js';
import { saveCheckoutCard, type CheckedCard } from '../modules/payments/methods.service.js';
import type { SubscriptionChanges } from './subscription-changes.js';
import { ENGLISH } from '../page-kit/i18n.js';
import type { DueClosedReason, DueLine, DueState } from '../modules/checkout/due-page.js';
import { sessionCustomer } from '../modules/checkout/session-customer.js';
import { FormProblem, formProblem, invoicePaymentRefused, isSessionSettledMeanwhile, sessionSettledMeanwhile } from '../modules/checkout/errors.js';
import { buyerProblem, checkTypedCard } from '../modules/checkout/form.js';
import * as repo from '../modules/checkout/queries.js';
import type { DueAnswer, InvoicePayer } from '../modules/checkout/ports.js';
import { planName, targetState } from '../modules/checkout/queries.js';
import { timeline } from '../modules/checkout/service.js';
import { stripeCardOf, stripeOnPage } from '../modules/checkout/stripe-element.js';
import type { AttachedMethod } from '../modules/payments/provider.js';

export type { DueAnswer, InvoicePayer };

/** What the due pages take from the checkout's completion: its CSRF token, its failure bookkeeping and the payment of a processing session. */
export interface CompletionParts {
  csrfToken(sessionId: string): Promise<string>;
  attemptFailed(session: repo.SessionRow, error: DomainError): Promise<void>;
  payProcessing(session: repo.SessionRow): Promise<unknown>;
  confirmWaiting(session: repo.SessionRow, intent: IntentRow, approved: boolean): Promise<unknown>;
}

type Sent = Record<string, string | undefined>;

const scopeOf = (s: repo.SessionRow): PurchaseScope => ({ organizationId: s.organization_id, environmentId: s.environment_id, environment: s.environment });
const claimOf = (s: repo.SessionRow): [string, string] => [`checkout:${s.environment_id}`, `${s.id}:${s.attempt}`];

/** The session succeeds once its payment is taken (a second completer finds it settled and changes nothing). */
async function settle(tx: Tx, session: repo.SessionRow, at: Date): Promise<void> {
  const locked = (await repo.findSession(tx, session.id, { forUpdate: true }))!;
  if (locked.status !== 'processing' || locked.attempt !== session.attempt) throw sessionSettledMeanwhile(session.id);
  await repo.updateSession(tx, session.id, { status: 'success', completed_at: at, modified_at: at });
  await timeline(tx, session.id, 'checkout_session.payment_succeeded', 'Payment succeeded', 'success', at, {
    amountUnits: session.amount_minor,
    currency: session.currency,
  });
}

/** The purchase of a change session: the pending change activates with its payment (plan-change-pending.ts), and the session succeeds. */
export function changePlanner(subscriptions: SubscriptionChanges, clock: Clock, session: repo.SessionRow) {
  const hooks: PurchaseHooks = {
    paid: (tx) => settle(tx, session, clock.now()),
    recorded: async (tx, ids) => {
      await repo.updateSession(tx, session.id, { order_id: ids.orderId, invoice_id: ids.invoiceId, subscription_id: ids.subscriptionId });
    },
  };
  const payment = { subscriptionId: session.target_id!, input: session.change_request as unknown as SubscriptionUpdate, askedAt: session.created_at };
  return subscriptions.pendingActivation({ ...scopeOf(session), apiBase: session.api_base }, payment, hooks);
}

export class DuePayments {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly completion: CompletionParts,
    private readonly payInvoice: InvoicePayer | null,
  ) {}

  /** Why the session can no longer take a payment, if it cannot: what it pays was paid, ended, or its time ran out. */
  private async closedReason(session: repo.SessionRow): Promise<DueClosedReason | null> {
    const target = await targetState(this.db, session);
    if (session.status === 'success' || target?.status === 'PAID') return 'paid';
    if (session.purpose === 'subscription_change' && target?.status !== 'incomplete') return 'ended';
    if (session.status === 'expired' || (session.status === 'open' && session.expires_at <= this.clock.now())) return 'expired';
    return null;
  }

  private closed(session: repo.SessionRow, reason: DueClosedReason): DueAnswer {
    return { kind: 'due-closed', status: reason === 'paid' ? 200 : 410, session, reason };
  }

  private async page(session: repo.SessionRow, status: number, problem: DueState['problem'], authenticate = false): Promise<DueAnswer> {
    const product = await findProduct(this.db, session.environment_id, session.product_id);
    const waiting = authenticate ? await this.waitingIntent(session) : undefined;
    // The invoice's lawful number, which its PDF and the portal show; invoices issued before numbering have their id.
    const line: DueLine = session.purpose === 'invoice'
      ? { kind: 'invoice', number: (await targetState(this.db, session))?.number ?? session.target_id ?? '' }
      : { kind: 'change', plan: (await planName(this.db, session.environment_id, session.plan_identifier)) ?? session.plan_identifier, period: session.charge_period };
    const state: DueState = {
      session,
      productName: product?.name ?? '',
      line,
      amountMinor: session.amount_minor ?? 0,
      currency: session.currency ?? 'USD',
      csrf: await this.completion.csrfToken(session.id),
      sandbox: session.environment === 'sandbox',
      providerReady: takesTypedCards(session),
      email: session.email ?? '',
      problem,
      authenticate,
      stripe: await stripeOnPage(this.db, session, waiting?.action_ref ?? null),
      seller: await sellerOnPages(this.db, session.organization_id, session.environment_id),
      customerLocale: (await sessionCustomer(this.db, session))?.locale ?? null,
      t: ENGLISH,
    };
    return { kind: 'due', status, state };
  }

  /** The change's payment waiting for the buyer's authentication, if there is one. */
  private waitingIntent(session: repo.SessionRow) {
    const [scope, key] = claimOf(session);
    return session.status === 'processing' ? intentOfIdempotencyKey(this.db, scope, key) : Promise.resolve(undefined);
  }

  async view(session: repo.SessionRow): Promise<DueAnswer> {
    const reason = await this.closedReason(session);
    return reason ? this.closed(session, reason) : this.page(session, 200, null);
  }

  /** The form was sent (its CSRF token already checked): pay, answer the authentication step, or show the page again. */
  /** `locale`: the browser's language, remembered on a customer who has none yet (as the checkout does). */
  async submit(session: repo.SessionRow, sent: Sent, csrfValid: boolean, locale: string | null = null): Promise<DueAnswer> {
    if (!csrfValid) return this.page(session, 403, { field: null, message: 'This form has expired. Reload the page and try again.', key: 'problem.formExpired' });
    const reason = await this.closedReason(session);
    if (reason) return this.closed(session, reason);
    try {
      if (sent.action === 'pay') return await this.pay(session, sent, locale);
      if (sent.action === 'authenticate_approve' || sent.action === 'authenticate_fail') return await this.authenticate(session, sent.action === 'authenticate_approve');
      return await this.page(session, 200, null);
    } catch (error) {
      const current = (await repo.findSession(this.db, session.id)) ?? session;
      if (error instanceof AuthenticationRequired) return this.page(current, 200, null, true);
      if (error instanceof FormProblem) return this.page(current, 422, { field: error.field, message: error.message, key: error.key, values: error.values });
      if (!(error instanceof DomainError)) throw error;
      const closed = await this.closedReason(current);
      if (closed) return this.closed(current, closed);
      return this.page(current, isOutage(error) ? 503 : 422, buyerProblem(error));
    }
  }

  private checkedCard(sent: Sent) {
    return checkTypedCard(sent, this.clock.now());
  }

  /** The card of the form: one Stripe's element collected (attached to the buyer's Stripe customer now, outside any transaction), else a typed test card. */
  private async cardOf(session: repo.SessionRow, sent: Sent): Promise<CheckedCard | AttachedMethod> {
    if (await stripeOnPage(this.db, session, null)) return stripeCardOf(this.db, session, { stripe_payment_method: sent.stripe_payment_method }, session.email);
    if (!takesTypedCards(session)) throw formProblem(null, 'No payment provider is configured for this environment; payments cannot be taken here yet.', 'problem.noProvider');
    return this.checkedCard(sent);
  }

  private async pay(session: repo.SessionRow, sent: Sent, locale: string | null): Promise<DueAnswer> {
    const prepared = await this.prepare(session.id, await this.cardOf(session, sent), locale);
    if (prepared.status === 'success') return { kind: 'redirect', location: prepared.success_url };
    try {
      if (prepared.purpose === 'invoice') await this.collect(prepared);
      else await this.activate(prepared);
    } catch (error) {
      const concurrent = isPaymentInProgress(error) || isSessionSettledMeanwhile(error);
      if (error instanceof DomainError && !concurrent) await this.completion.attemptFailed(prepared, error);
      throw error;
    }
    return { kind: 'redirect', location: prepared.success_url };
  }

  /** Step 1: the card becomes the customer's default method, and the attempt is counted. */
  private prepare(id: string, card: CheckedCard | AttachedMethod, locale: string | null): Promise<repo.SessionRow> {
    return inTransaction(this.db, async (tx) => {
      const session = (await repo.findSession(tx, id, { forUpdate: true }))!;
      if (session.status !== 'open') return session;
      const now = this.clock.now();
      const customer = await ensureCheckoutCustomer(tx, scopeOf(session), { customerId: session.customer_ref!, email: null, name: null, country: null, locale }, now);
      const method = await saveCheckoutCard(tx, scopeOf(session), customer, card, now);
      const updated = await repo.updateSession(tx, id, { status: 'processing', attempt: session.attempt + 1, payment_method_id: method.id, modified_at: now });
      await timeline(tx, id, 'checkout_session.payment_attempted', 'Payment attempted', 'pending', now, { attempt: updated.attempt });
      return updated;
    });
  }

  /** A change: on the planned pipeline, on-session (the card may ask for authentication). */
  private activate(session: repo.SessionRow): Promise<unknown> {
    return this.completion.payProcessing(session);
  }

  /** An invoice: collected as `POST /invoices/{id}/pay/` collects it; paid, the session succeeds. */
  private async collect(session: repo.SessionRow): Promise<void> {
    if (!this.payInvoice) throw formProblem(null, 'Invoices cannot be paid on this server.');
    const result = await this.payInvoice(scopeOf(session), session.target_id!);
    if (result.outcome !== 'paid') throw invoicePaymentRefused(result.code, result.message);
    await inTransaction(this.db, async (tx) => {
      await settle(tx, session, this.clock.now());
      await repo.updateSession(tx, session.id, { invoice_id: session.target_id });
    });
  }

  /** The buyer answered the card's authentication step (a change's payment). */
  private async authenticate(session: repo.SessionRow, approved: boolean): Promise<DueAnswer> {
    const intent = await this.waitingIntent(session);
    if (!intent) return this.page(session, 200, null);
    const now = this.clock.now();
    await inTransaction(this.db, (tx) =>
      timeline(tx, session.id, 'checkout_session.authentication_answered', approved ? 'Card authentication approved' : 'Card authentication failed', approved ? 'success' : 'failed', now),
    );
    try {
      await this.completion.confirmWaiting(session, intent, approved);
    } catch (error) {
      if (error instanceof DomainError) await this.completion.attemptFailed(session, error);
      throw error;
    }
    return { kind: 'redirect', location: session.success_url };
  }
}

/**
 * Without Stripe, pay-link pages take typed test cards, which only the sandbox's built-in
 * provider charges; with Stripe they take Stripe's element, as the checkout does (decision 0039).
 */
function takesTypedCards(session: repo.SessionRow): boolean {
  return session.environment === 'sandbox';
}
