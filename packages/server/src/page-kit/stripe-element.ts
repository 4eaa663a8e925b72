/**
 * Stripe's Payment Element on any hosted page (decision 0039): the checkout, the pay-link
 * pages and the portal's "add a card" form. The page shows only the element's mount point
 * (never a card-number field); Stripe.js turns the card into a PaymentMethod and the form
 * posts its id (`stripe_payment_method`), which the server attaches itself.
 */
import { createHash } from 'node:crypto';
import { html, type SafeHtml } from './html.js';
import type { ThirdPartySources } from './headers.js';

/** Exactly the origins Stripe.js needs (script, its frames, its API): added to the policy of these pages only. */
export const STRIPE_CSP: ThirdPartySources = {
  script: 'https://js.stripe.com',
  frame: 'https://js.stripe.com https://hooks.stripe.com',
  connect: 'https://api.stripe.com',
};

export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

/** The shape of a Stripe PaymentMethod id (Stripe itself says whether it exists). */
export const STRIPE_METHOD_ID = /^pm_[A-Za-z0-9_]{1,200}$/;

/**
 * The element's mount point inside a form; `submitValue` is the value of the button that
 * needs the card (the script creates the PaymentMethod before that button's submission).
 */
export function stripeMountPoint(publishableKey: string, currency: string, submitValue = 'pay'): SafeHtml {
  return html`<div id="payment-element" data-stripe-publishable-key="${publishableKey}" data-currency="${currency.toLowerCase()}" data-submit="${submitValue}"></div>
<p class="hint" id="payment-element-problem" role="alert" hidden></p>
<input type="hidden" name="stripe_payment_method" value="">
<noscript><p class="problem">Card payments on this page need JavaScript (Stripe's secure card field).</p></noscript>`;
}

/** Stripe.js and this page's script that drives the element (`assetBase`: the page's own asset folder). */
export function stripeScripts(assetBase: string): SafeHtml {
  return html`<script src="${STRIPE_JS_URL}"></script>
<script src="${assetBase}/stripe-element.${STRIPE_JS_VERSION}.js" defer></script>`;
}

export const STRIPE_ELEMENT_JS = `(function () {
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
  var form = mount.closest('form');
  var submitValue = mount.getAttribute('data-submit') || 'pay';
  var problem = document.getElementById('payment-element-problem');
  var elements = stripe.elements({ mode: 'setup', currency: mount.getAttribute('data-currency'), paymentMethodCreation: 'manual' });
  elements.create('payment').mount(mount);
  function show(message) { problem.textContent = message; problem.hidden = false; }
  form.addEventListener('submit', function (event) {
    var button = event.submitter;
    if (!button || button.value !== submitValue || form.elements.stripe_payment_method.value) return;
    event.preventDefault();
    elements.submit().then(function (checked) {
      if (checked.error) return show(checked.error.message);
      return stripe.createPaymentMethod({ elements: elements }).then(function (created) {
        if (created.error) return show(created.error.message);
        form.elements.stripe_payment_method.value = created.paymentMethod.id;
        if (button.name) {
          var pressed = document.createElement('input');
          pressed.type = 'hidden'; pressed.name = button.name; pressed.value = button.value;
          form.appendChild(pressed);
        }
        form.submit();
      });
    });
  });
})();
`;

export const STRIPE_JS_VERSION = createHash('sha256').update(STRIPE_ELEMENT_JS).digest('hex').slice(0, 12);

/** The element's script as a hosted asset, when `file` names it. */
export function stripeAsset(file: string): { type: string; body: string } | null {
  return file === `stripe-element.${STRIPE_JS_VERSION}.js` ? { type: 'text/javascript; charset=utf-8', body: STRIPE_ELEMENT_JS } : null;
}
