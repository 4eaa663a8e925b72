/**
 * Card collection with Stripe's own Payment Element (decision 0039): in an environment
 * whose payments go to Stripe, the hosted checkout never shows a card-number field. The
 * page mounts the element (Stripe.js from js.stripe.com, this page only), Stripe.js turns
 * the card into a PaymentMethod, and the form posts its id (`stripe_payment_method`),
 * which the server attaches and charges; a card that asks for 3-D Secure is finished
 * by Stripe.js on the authentication step and settled by the server (or Stripe's webhook).
 */
import type { Db } from '../../db/connect.js';
import type { AttachedMethod } from '../payments/provider.js';
import { attachCheckoutStripeMethod, stripeClientSecret, stripeElementKey } from '../payments/providers.js';
import { DomainError, isOutage } from '../../lib/domain-error.js';
import { formProblem } from './errors.js';
import { html, type SafeHtml } from '../../page-kit/html.js';
import { STRIPE_METHOD_ID, stripeMountPoint } from '../../page-kit/stripe-element.js';
import type { SessionRow } from './repo.js';

/** Stripe on the page: its publishable key, and the client secret of a payment waiting for authentication. */
export interface StripeOnPage {
  publishableKey: string | null;
  clientSecret: string | null;
}

/** The session's environment takes cards through Stripe: what the page needs, else null (the built-in sandbox cards). */
export async function stripeOnPage(db: Db, session: SessionRow, waitingIntentRef: string | null): Promise<StripeOnPage | null> {
  const scope = { environmentId: session.environment_id, environment: session.environment };
  const element = await stripeElementKey(db, scope);
  if (!element) return null;
  const clientSecret = waitingIntentRef ? await stripeClientSecret(db, scope, waitingIntentRef) : null;
  return { publishableKey: element.publishableKey, clientSecret };
}

/** The Payment Element's mount point (never a card field), or why the page cannot take cards. */
export function stripeCardFields(stripe: StripeOnPage, currency: string): SafeHtml {
  if (!stripe.publishableKey) {
    return html`<p class="problem" role="alert">This page cannot take cards yet: the seller has not finished setting up payments. Please contact the seller.</p>`;
  }
  return html`<h2>Card</h2>
${stripeMountPoint(stripe.publishableKey, currency)}`;
}

/** The authentication step with Stripe: Stripe.js shows the bank's 3-D Secure and the form reports how it ended. */
export function stripeAuthentication(stripe: StripeOnPage, csrf: string): SafeHtml {
  return html`<div id="payment-element" data-stripe-publishable-key="${stripe.publishableKey ?? ''}" data-client-secret="${stripe.clientSecret ?? ''}"></div>
<form method="post" action="" id="authenticate-form">
<input type="hidden" name="csrf_token" value="${csrf}">
<input type="hidden" name="action" value="authenticate_approve" id="authenticate-action">
<button type="submit" id="approve">I have confirmed the payment with my bank</button>
</form>`;
}

/** The PaymentMethod id the page posted, checked for shape (the server attaches it, Stripe says whether it exists). */
export function checkedStripeMethod(sent: { stripe_payment_method?: string }): string {
  const id = (sent.stripe_payment_method ?? '').trim();
  if (!STRIPE_METHOD_ID.test(id)) throw formProblem(null, 'Enter your card details in the card field, then pay.');
  return id;
}

/**
 * The card the page posted (a PaymentMethod id from Stripe's element), attached to the
 * buyer's Stripe customer outside any transaction, before the attempt is recorded.
 */
export async function stripeCardOf(db: Db, session: SessionRow, sent: { stripe_payment_method?: string; name?: string }, email: string | null): Promise<AttachedMethod> {
  const paymentMethod = checkedStripeMethod(sent);
  try {
    return await attachCheckoutStripeMethod(db, { environmentId: session.environment_id, environment: session.environment }, {
      paymentMethod,
      customerPk: session.customer_id,
      newCustomerKey: `checkout_${session.id}`,
      email: email ?? session.email,
      name: (sent.name ?? '').trim() || session.name,
    });
  } catch (error) {
    if (error instanceof DomainError && !isOutage(error)) throw formProblem(null, 'This card could not be used. Try again, or use another card.');
    throw error;
  }
}
