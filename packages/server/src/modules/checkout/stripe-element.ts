/**
 * Card collection with Stripe's own Payment Element (decision 0039): in an environment
 * whose payments go to Stripe, the hosted checkout never shows a card-number field. The
 * page mounts the element (Stripe.js from js.stripe.com, this page only), Stripe.js turns
 * the card into a PaymentMethod, and the form posts its id (`stripe_payment_method`),
 * which the server attaches and charges; a card that asks for 3-D Secure is finished
 * by Stripe.js on the authentication step and settled by the server (or Stripe's webhook).
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import type { AttachedMethod } from '../payments/provider.js';
import { attachCheckoutStripeMethod, stripeClientSecret, stripeCheckoutKey } from '../payments/providers.js';
import { ApiError } from '../../http/errors.js';
import { formProblem } from './errors.js';
import { html, type SafeHtml } from '../../hosted/html.js';
import type { SessionRow } from './repo.js';

/** Stripe on the page: its publishable key, and the client secret of a payment waiting for authentication. */
export interface StripeOnPage {
  publishableKey: string | null;
  clientSecret: string | null;
}

/** Exactly the origins Stripe.js needs (script, its frames, its API): added to this page's policy only. */
export const STRIPE_CSP = {
  script: 'https://js.stripe.com',
  frame: 'https://js.stripe.com https://hooks.stripe.com',
  connect: 'https://api.stripe.com',
} as const;

export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

/** The session's environment takes cards through Stripe: what the page needs, else null (the built-in sandbox cards). */
export async function stripeOnPage(db: Db, session: SessionRow, waitingIntentRef: string | null): Promise<StripeOnPage | null> {
  const publishableKey = await stripeCheckoutKey(db, session.environment_id);
  if (publishableKey === undefined) return null;
  // A sandbox with Stripe but no publishable key keeps its built-in test cards.
  if (publishableKey === null && session.environment === 'sandbox') return null;
  const clientSecret = waitingIntentRef ? await stripeClientSecret(db, { environmentId: session.environment_id, environment: session.environment }, waitingIntentRef) : null;
  return { publishableKey, clientSecret };
}

/** The Payment Element's mount point (never a card field), or why the page cannot take cards. */
export function stripeCardFields(stripe: StripeOnPage, currency: string): SafeHtml {
  if (!stripe.publishableKey) {
    return html`<p class="problem" role="alert">This page cannot take cards yet: the seller has not finished setting up payments. Please contact the seller.</p>`;
  }
  return html`<h2>Card</h2>
<div id="payment-element" data-stripe-publishable-key="${stripe.publishableKey}" data-currency="${currency.toLowerCase()}"></div>
<p class="hint" id="payment-element-problem" role="alert" hidden></p>
<input type="hidden" name="stripe_payment_method" value="">
<noscript><p class="problem">Card payments on this page need JavaScript (Stripe's secure card field).</p></noscript>`;
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
  if (!/^pm_[A-Za-z0-9_]{1,200}$/.test(id)) throw formProblem(null, 'Enter your card details in the card field, then pay.');
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
    if (error instanceof ApiError && error.status < 500) throw formProblem(null, 'This card could not be used. Try again, or use another card.');
    throw error;
  }
}

export const STRIPE_CHECKOUT_JS = `(function () {
  'use strict';
  var mount = document.getElementById('payment-element');
  if (!mount || typeof Stripe !== 'function' || !mount.getAttribute('data-stripe-publishable-key')) return;
  var stripe = Stripe(mount.getAttribute('data-stripe-publishable-key'));
  var secret = mount.getAttribute('data-client-secret');
  if (secret) {
    stripe.handleNextAction({ clientSecret: secret }).then(function (result) {
      document.getElementById('authenticate-action').value = result.error ? 'authenticate_fail' : 'authenticate_approve';
      document.getElementById('authenticate-form').submit();
    });
    return;
  }
  var form = document.getElementById('checkout-form');
  var problem = document.getElementById('payment-element-problem');
  var elements = stripe.elements({ mode: 'setup', currency: mount.getAttribute('data-currency'), paymentMethodCreation: 'manual' });
  elements.create('payment').mount(mount);
  function show(message) { problem.textContent = message; problem.hidden = false; }
  form.addEventListener('submit', function (event) {
    if (!event.submitter || event.submitter.value !== 'pay' || form.elements.stripe_payment_method.value) return;
    event.preventDefault();
    elements.submit().then(function (checked) {
      if (checked.error) return show(checked.error.message);
      return stripe.createPaymentMethod({ elements: elements }).then(function (created) {
        if (created.error) return show(created.error.message);
        form.elements.stripe_payment_method.value = created.paymentMethod.id;
        var action = document.createElement('input');
        action.type = 'hidden'; action.name = 'action'; action.value = 'pay';
        form.appendChild(action);
        form.submit();
      });
    });
  });
})();
`;

export const STRIPE_JS_VERSION = createHash('sha256').update(STRIPE_CHECKOUT_JS).digest('hex').slice(0, 12);
