/**
 * Completing a checkout session from its hosted page (decision 0034):
 *
 *   1. one transaction locks the session, creates or completes the customer, saves
 *      the card (brand, last four, expiry only) as their default method and marks
 *      the session processing, as attempt N;
 *   2. the purchase is planned as a value and paid on the planned pipeline (planned-payment.ts),
 *      on-session (the card may ask for authentication), under the idempotency claim
 *      `checkout:{session}:{N}`: a replayed form finds the same intent and never charges
 *      twice; a declined attempt N leaves N+1 a new payment;
 *   3. in the purchase's own transaction, once the payment is taken, the session
 *      becomes success and `checkout.completed` is recorded, before the purchase
 *      records its order, invoice and `subscription.created`.
 */
import { sellerOnPages } from '../modules/seller-profile/queries.js';
import { ENGLISH } from '../page-kit/i18n.js';
import { browserLanguage } from '../page-kit/locale.js';
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { inTransaction, type Tx } from '../db/transaction.js';
import type { EntitlementChanges } from '../edge-cache/change-feed.js';
import {
  AuthenticationRequired,
  completePlanned,
  confirmPlanned,
  plannedPurchase,
  purchasePlanned,
  type IdempotencyClaim,
  type PlannedPurchase,
  type PurchasePlanner,
} from './planned-payment.js';
import type { PurchaseHooks } from '../modules/purchases/purchase.js';
import { DomainError, isOutage } from '../lib/domain-error.js';
import { formToken, formTokenValid } from '../page-kit/csrf.js';
import type { Clock } from '../lib/clock.js';
import { countryOfAddress } from '../lib/countries.js';
import { ChargeService } from './charge.js';
import { ensureCheckoutCustomer } from '../modules/customers/service.js';
import { recordEvent } from '../modules/events/writer.js';
import { instanceSecret } from '../modules/instance-secrets/secret.js';
import { findIntent, intentOfIdempotencyKey, type IntentRow } from '../modules/intents/queries.js';
import { isPaymentInProgress } from '../modules/intents/errors.js';
import { saveCheckoutCard } from '../modules/payments/methods.service.js';
import { providerConfigured } from '../modules/payments/providers.js';
import { stripeCardOf, stripeOnPage } from '../modules/checkout/stripe-element.js';
import { SubscriptionChanges } from './subscription-changes.js';
import { discountOfSession, redeemSessionDiscount } from '../modules/checkout/discount.js';
import { applySessionDiscount, postedAction } from '../modules/checkout/discount-apply.js';
import { changePlanner, DuePayments, type InvoicePayer } from './pay-due-invoice.js';
import { formProblem, FormProblem, isSessionSettledMeanwhile, sessionSettledMeanwhile } from '../modules/checkout/errors.js';
import { buyerProblem, checkTypedCard, isEmail } from '../modules/checkout/form.js';
import { locatedCountry, promotionOfSelection, promotionOfSession } from '../modules/checkout/promotion.js';
import { overrideOf, pageSelection, priceSelection, productOf, type Selection } from '../modules/checkout/page-model.js';
import * as repo from '../modules/checkout/queries.js';
import type { CheckoutPages, PageAnswer } from '../modules/checkout/ports.js';
import type { PageState } from '../modules/checkout/page-state.js';
import { buyerCustomerId } from '../modules/checkout/session-customer.js';
import { businessTaxIdOf } from '../modules/checkout/business.js';
import { NO_ONLINE_CHECK_VERIFIER, taxIdVerifier, type TaxIdVerifier } from '../modules/customers/queries.js';
import { timeline } from '../modules/checkout/service.js';
import { completedEventObject, successRedirect } from '../modules/checkout/view.js';

export type { Sent } from '../page-kit/forms.js';
import type { Sent } from '../page-kit/forms.js';

export type { PageState } from '../modules/checkout/page-state.js';

export type { PageAnswer };

type Answer = Record<string, unknown>;

/** What a session's purchase was planned as: the use case that buys it (subscribe, charge, activate a change), and its plan. */
interface SessionPlan {
  planner: PurchasePlanner<unknown, Answer>;
  plan: unknown;
}

export class CheckoutCompletion implements CheckoutPages {
  private readonly secret: () => Promise<string>;
  private readonly subscriptions: SubscriptionChanges;
  private readonly charges: ChargeService;
  private readonly due: DuePayments;
  private readonly verifyTaxId: TaxIdVerifier;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    config: Pick<Config, 'secret' | 'pendingUpdateTtlMs'> & Partial<Pick<Config, 'taxIdCheck'>>,
    private readonly changes: EntitlementChanges | null = null,
    payInvoice: InvoicePayer | null = null,
  ) {
    this.secret = instanceSecret(db, clock, config.secret, 'checkout_csrf');
    this.subscriptions = new SubscriptionChanges(db, clock, config.pendingUpdateTtlMs, changes);
    this.charges = new ChargeService(db, clock, changes);
    this.due = new DuePayments(db, clock, this, payInvoice);
    this.verifyTaxId = config.taxIdCheck ? taxIdVerifier(config.taxIdCheck) : NO_ONLINE_CHECK_VERIFIER;
  }

  /** The form's CSRF token: an HMAC of the session id under an instance secret (nothing to store). */
  async csrfToken(sessionId: string): Promise<string> {
    return formToken(await this.secret(), 'checkout', sessionId);
  }

  async csrfValid(sessionId: string, sent: string | undefined): Promise<boolean> {
    return formTokenValid(await this.secret(), 'checkout', sessionId, sent);
  }

  /** The session the page at this URL shows, or null: unknown ids, and ids of the other environment, are not found. */
  async sessionAt(id: string, environment: 'sandbox' | 'production', tx?: Tx): Promise<repo.SessionRow | null> {
    if (!/^cs_[A-Za-z0-9]{24,64}$/.test(id)) return null;
    const row = await repo.findSession(tx ?? this.db, id, { forUpdate: tx !== undefined });
    if (!row) return null;
    return row.environment === environment ? row : null;
  }

  /** An open session past its 24 hours is expired here too, whether or not its job has run yet. */
  closedAnswer(session: repo.SessionRow): PageAnswer | null {
    if (session.status === 'success') return { kind: 'closed', status: 410, session, reason: 'success' };
    if (session.status === 'expired' || (session.status === 'open' && session.expires_at.getTime() <= this.clock.now().getTime())) {
      return { kind: 'closed', status: 410, session, reason: 'expired' };
    }
    return null;
  }

  async state(session: repo.SessionRow, sent: Sent, ipAddress: string | null, problem: PageState['formProblem'], waiting: IntentRow | null = null): Promise<PageState> {
    const selection = await pageSelection(this.db, session, sent, ipAddress);
    const posted = sent.csrf_token !== undefined;
    const { priced, product } = await inTransaction(this.db, async (tx) => ({
      priced: await priceSelection(tx, session, selection, this.clock.now(), locatedCountry(session, ipAddress), posted),
      product: await productOf(tx, session),
    }));
    const email = session.lock_email ? (priced.customerEmail ?? session.email ?? '') : (sent.email ?? session.email ?? priced.customerEmail ?? '');
    return {
      ...priced,
      session,
      productName: product.name,
      productDescription: product.description,
      selection,
      csrf: await this.csrfToken(session.id),
      sandbox: session.environment === 'sandbox',
      providerReady: await providerConfigured(this.db, { environmentId: session.environment_id, environment: session.environment }),
      email,
      name: sent.name ?? session.name ?? '',
      business: posted ? selection.business : priced.customerTaxId !== null,
      taxId: posted ? selection.taxIdText : (priced.customerTaxId ?? ''),
      formProblem: problem,
      authenticate: waiting !== null,
      stripe: await stripeOnPage(this.db, session, waiting?.action_ref ?? null),
      seller: await sellerOnPages(this.db, session.organization_id, session.environment_id),
      t: ENGLISH,
    };
  }

  /** GET: the page, priced for the selection in the query (or the session's defaults). */
  async view(id: string, environment: 'sandbox' | 'production', query: Sent, ipAddress: string | null): Promise<PageAnswer> {
    const session = await this.sessionAt(id, environment);
    if (!session) return { kind: 'missing' };
    if (session.purpose !== 'purchase') return this.due.view(session);
    const closed = this.closedAnswer(session);
    if (closed) return closed;
    return { kind: 'page', status: 200, state: await this.state(session, query, ipAddress, null) };
  }

  /** POST: re-price ("Update price"), or pay. */
  async submit(id: string, environment: 'sandbox' | 'production', sent: Sent, ipAddress: string | null, acceptLanguage?: string): Promise<PageAnswer> {
    const session = await this.sessionAt(id, environment);
    if (!session) return { kind: 'missing' };
    if (session.purpose !== 'purchase') return this.due.submit(session, sent, await this.csrfValid(id, sent.csrf_token), browserLanguage(acceptLanguage));
    if (!(await this.csrfValid(id, sent.csrf_token))) {
      return { kind: 'page', status: 403, state: await this.state(session, sent, ipAddress, { field: null, message: 'This form has expired. Reload the page and try again.', key: 'problem.formExpired' }) };
    }
    if (session.status === 'success') return { kind: 'redirect', location: successRedirect(session.success_url, session.id) };
    const closed = this.closedAnswer(session);
    if (closed) return closed;
    const action = postedAction(session, sent);
    if (action !== 'pay' && action !== 'discount' && action !== 'authenticate_approve' && action !== 'authenticate_fail') {
      return { kind: 'page', status: 200, state: await this.state(session, sent, ipAddress, null) };
    }
    try {
      if (action === 'pay') return await this.pay(session, sent, ipAddress, browserLanguage(acceptLanguage));
      if (action === 'discount') return await this.applyDiscount(session, sent, ipAddress);
      return await this.authenticate(session, action === 'authenticate_approve', sent, ipAddress);
    } catch (error) {
      if (error instanceof AuthenticationRequired) {
        const current = (await this.sessionAt(id, environment)) ?? session;
        return { kind: 'page', status: 200, state: await this.state(current, sent, ipAddress, null, (await findIntent(this.db, error.intentId)) ?? null) };
      }
      const problem =
        error instanceof FormProblem ? { field: error.field, message: error.message, key: error.key, values: error.values }
        : error instanceof DomainError ? buyerProblem(error)
        : null;
      if (!problem) throw error;
      const current = (await this.sessionAt(id, environment)) ?? session;
      return { kind: 'page', status: isOutage(error) ? 503 : 422, state: await this.state(current, sent, ipAddress, problem) };
    }
  }

  /** The page's discount field posted back (discount-apply.ts); the page shows the new price. */
  private async applyDiscount(session: repo.SessionRow, sent: Sent, ipAddress: string | null): Promise<PageAnswer> {
    const updated = await applySessionDiscount(this.db, this.clock, session, sent, ipAddress);
    return { kind: 'page', status: 200, state: await this.state(updated, sent, ipAddress, null) };
  }

  private async checkedForm(session: repo.SessionRow, sent: Sent, selection: Selection) {
    const email = session.lock_email ? null : (sent.email ?? '').trim();
    if (email !== null && !isEmail(email)) throw formProblem('email', 'Enter a valid email address, such as you@example.com.', 'problem.email');
    if (!selection.country) throw formProblem('country', 'Choose your billing country.', 'problem.country');
    const taxId = await businessTaxIdOf(this.db, session, selection, { verify: this.verifyTaxId, now: this.clock.now() });
    if (!(await providerConfigured(this.db, { environmentId: session.environment_id, environment: session.environment }))) {
      throw formProblem(null, 'No payment provider is configured for this environment; payments cannot be taken here yet.', 'problem.noProvider');
    }
    const stripe = await stripeOnPage(this.db, session, null);
    const name = (sent.name ?? '').trim().slice(0, 200) || null;
    if (stripe) return { email, name, taxId, card: await stripeCardOf(this.db, session, sent, email) };
    return { email, name, taxId, card: checkTypedCard(sent, this.clock.now()) };
  }

  private async pay(session: repo.SessionRow, sent: Sent, ipAddress: string | null, locale: string | null): Promise<PageAnswer> {
    const selection = await pageSelection(this.db, session, sent, ipAddress);
    const form = { ...(await this.checkedForm(session, sent, selection)), locale };
    const prepared = await this.prepare(session.id, selection, form, locatedCountry(session, ipAddress));
    if (prepared.status === 'success') return { kind: 'redirect', location: successRedirect(prepared.success_url, prepared.id) };
    try {
      await this.payProcessing(prepared);
    } catch (error) {
      // A second submission of the same attempt (a double click) finds the first one paying: it changes nothing.
      const concurrent = isPaymentInProgress(error) || isSessionSettledMeanwhile(error);
      if (error instanceof DomainError && !concurrent) await this.attemptFailed(prepared, error);
      throw error;
    }
    return { kind: 'redirect', location: successRedirect(prepared.success_url, prepared.id) };
  }

  /** Step 1: the customer, the card and the attempt, in one transaction. A form sent again while processing changes nothing. */
  private async prepare(
    id: string,
    selection: Selection,
    form: Awaited<ReturnType<CheckoutCompletion['checkedForm']>> & { locale: string | null },
    located: string | null,
  ): Promise<repo.SessionRow> {
    return inTransaction(this.db, async (tx) => {
      const session = (await repo.findSession(tx, id, { forUpdate: true }))!;
      if (session.status !== 'open') return session;
      const now = this.clock.now();
      const scope = scopeOfSession(session);
      const customer = await ensureCheckoutCustomer(
        tx,
        scope,
        { customerId: await buyerCustomerId(tx, session), email: form.email, name: form.name, country: selection.country, taxId: form.taxId, locale: form.locale },
        now,
      );
      const method = await saveCheckoutCard(tx, scope, customer, form.card, now);
      const promotion = await promotionOfSelection(tx, session, selection.plan, { located, billing: countryOfAddress(customer.billing_address) });
      const updated = await repo.updateSession(tx, id, {
        status: 'processing',
        attempt: session.attempt + 1,
        customer_ref: customer.customer_id,
        customer_id: customer.id,
        email: form.email ?? customer.email,
        name: form.name ?? customer.name,
        billing_country: selection.country,
        plan_identifier: selection.plan,
        charge_period: selection.period,
        features: JSON.stringify(Object.entries(selection.quantities).map(([identifier, quantity]) => ({ identifier, quantity }))),
        payment_method_id: method.id,
        promotion_id: promotion?.id ?? null,
        promotion_percent: promotion?.percentage ?? null,
        modified_at: now,
      });
      await timeline(tx, id, 'checkout_session.details_updated', 'Customer details updated', 'success', now, { billingCountry: selection.country });
      await timeline(tx, id, 'checkout_session.payment_attempted', 'Payment attempted', 'pending', now, { attempt: updated.attempt, last4: method.last4 });
      return updated;
    });
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

  /** The buyer answered the card's authentication step: the waiting payment is confirmed or failed. */
  private async authenticate(session: repo.SessionRow, approved: boolean, sent: Sent, ipAddress: string | null): Promise<PageAnswer> {
    const intent = session.status === 'processing' ? await intentOfIdempotencyKey(this.db, ...claimOf(session)) : undefined;
    if (!intent) return { kind: 'page', status: 200, state: await this.state(session, sent, ipAddress, null) };
    await inTransaction(this.db, (tx) =>
      timeline(tx, session.id, 'checkout_session.authentication_answered', approved ? 'Card authentication approved' : 'Card authentication failed', approved ? 'success' : 'failed', this.clock.now()),
    );
    try {
      await this.confirmWaiting(session, intent, approved);
    } catch (error) {
      if (error instanceof DomainError) await this.attemptFailed(session, error);
      throw error;
    }
    return { kind: 'redirect', location: successRedirect(session.success_url, session.id) };
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
function claimOf(session: repo.SessionRow): [string, string] {
  return [`checkout:${session.environment_id}`, `${session.id}:${session.attempt}`];
}

function scopeOfSession(session: repo.SessionRow) {
  return {
    organizationId: session.organization_id,
    environmentId: session.environment_id,
    environment: (session.environment) as 'sandbox' | 'production',
  };
}
