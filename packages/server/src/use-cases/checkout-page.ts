/**
 * The hosted checkout page (decision 0034): shows a session priced for the buyer's
 * selection, takes the form back (re-price, discount code, pay, the card's authentication
 * step), and answers with the page again, its problem in place, or the redirect. Paying:
 *
 *   1. one transaction locks the session, creates or completes the customer, saves
 *      the card (brand, last four, expiry only) as their default method and marks
 *      the session processing, as attempt N;
 *   2. the session's purchase is paid (complete-checkout.ts).
 *
 * Sessions that pay what is owed (an invoice, a pending change) are the due pages' (pay-due-invoice.ts).
 */
import { sellerOnPages } from '../modules/seller-profile/queries.js';
import { ENGLISH } from '../page-kit/i18n.js';
import { browserLanguage } from '../page-kit/locale.js';
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { inTransaction, type Tx } from '../db/transaction.js';
import type { EntitlementChanges } from '../edge-cache/change-feed.js';
import { AuthenticationRequired } from './planned-payment.js';
import { DomainError, isOutage } from '../lib/domain-error.js';
import { formToken, formTokenValid } from '../page-kit/csrf.js';
import type { Clock } from '../lib/clock.js';
import { countryOfAddress } from '../lib/countries.js';
import { ensureCheckoutCustomer } from '../modules/customers/service.js';
import { instanceSecret } from '../modules/instance-secrets/secret.js';
import { findIntent, intentOfIdempotencyKey, type IntentRow } from '../modules/intents/queries.js';
import { isPaymentInProgress } from '../modules/intents/errors.js';
import { saveCheckoutCard } from '../modules/payments/methods.service.js';
import { providerConfigured } from '../modules/payments/providers.js';
import { stripeCardOf, stripeOnPage } from '../modules/checkout/stripe-element.js';
import { applySessionDiscount, postedAction } from '../modules/checkout/discount-apply.js';
import { DuePayments, type InvoicePayer } from './pay-due-invoice.js';
import { CheckoutPurchases, claimOf, scopeOfSession } from './complete-checkout.js';
import { formProblem, FormProblem, isSessionSettledMeanwhile } from '../modules/checkout/errors.js';
import { buyerProblem, checkTypedCard, isEmail } from '../modules/checkout/form.js';
import { locatedCountry, promotionOfSelection } from '../modules/checkout/promotion.js';
import { pageSelection, priceSelection, productOf, type Selection } from '../modules/checkout/page-model.js';
import * as repo from '../modules/checkout/queries.js';
import type { CheckoutPages, PageAnswer } from '../modules/checkout/ports.js';
import type { PageState } from '../modules/checkout/page-state.js';
import { buyerCustomerId } from '../modules/checkout/session-customer.js';
import { businessTaxIdOf } from '../modules/checkout/business.js';
import { NO_ONLINE_CHECK_VERIFIER, taxIdVerifier, type TaxIdVerifier } from '../modules/customers/queries.js';
import { timeline } from '../modules/checkout/service.js';
import { successRedirect } from '../modules/checkout/view.js';


export type { Sent } from '../page-kit/forms.js';
import type { Sent } from '../page-kit/forms.js';

export type { PageState } from '../modules/checkout/page-state.js';

export type { PageAnswer };

export class HostedCheckout implements CheckoutPages {
  private readonly secret: () => Promise<string>;
  private readonly purchases: CheckoutPurchases;
  private readonly due: DuePayments;
  private readonly verifyTaxId: TaxIdVerifier;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    config: Pick<Config, 'secret' | 'pendingUpdateTtlMs'> & Partial<Pick<Config, 'taxIdCheck'>>,
    changes: EntitlementChanges | null = null,
    payInvoice: InvoicePayer | null = null,
  ) {
    this.secret = instanceSecret(db, clock, config.secret, 'checkout_csrf');
    this.purchases = new CheckoutPurchases(db, clock, config, changes);
    const purchases = this.purchases;
    const parts = {
      csrfToken: (sessionId: string) => this.csrfToken(sessionId),
      attemptFailed: (session: repo.SessionRow, error: DomainError) => purchases.attemptFailed(session, error),
      payProcessing: (session: repo.SessionRow) => purchases.payProcessing(session),
      confirmWaiting: (session: repo.SessionRow, intent: IntentRow, approved: boolean) => purchases.confirmWaiting(session, intent, approved),
    };
    this.due = new DuePayments(db, clock, parts, payInvoice);
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
      productImage: product.image,
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
      await this.purchases.payProcessing(prepared);
    } catch (error) {
      // A second submission of the same attempt (a double click) finds the first one paying: it changes nothing.
      const concurrent = isPaymentInProgress(error) || isSessionSettledMeanwhile(error);
      if (error instanceof DomainError && !concurrent) await this.purchases.attemptFailed(prepared, error);
      throw error;
    }
    return { kind: 'redirect', location: successRedirect(prepared.success_url, prepared.id) };
  }

  /** Step 1: the customer, the card and the attempt, in one transaction. A form sent again while processing changes nothing. */
  private async prepare(
    id: string,
    selection: Selection,
    form: Awaited<ReturnType<HostedCheckout['checkedForm']>> & { locale: string | null },
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

  /** The buyer answered the card's authentication step: the waiting payment is confirmed or failed. */
  private async authenticate(session: repo.SessionRow, approved: boolean, sent: Sent, ipAddress: string | null): Promise<PageAnswer> {
    const intent = session.status === 'processing' ? await intentOfIdempotencyKey(this.db, ...claimOf(session)) : undefined;
    if (!intent) return { kind: 'page', status: 200, state: await this.state(session, sent, ipAddress, null) };
    await inTransaction(this.db, (tx) =>
      timeline(tx, session.id, 'checkout_session.authentication_answered', approved ? 'Card authentication approved' : 'Card authentication failed', approved ? 'success' : 'failed', this.clock.now()),
    );
    try {
      await this.purchases.confirmWaiting(session, intent, approved);
    } catch (error) {
      if (error instanceof DomainError) await this.purchases.attemptFailed(session, error);
      throw error;
    }
    return { kind: 'redirect', location: successRedirect(session.success_url, session.id) };
  }

}
