import { createHash } from 'node:crypto';
import { HOSTED_CSS } from '../../page-kit/styles.js';
import { DISCOUNT_CSS, DISCOUNT_JS } from './assets-discount.js';

/** The business field: a checkbox on one line, and the tax id shown only while it is ticked. */
const BUSINESS_CSS = `
.check{display:flex;gap:.5rem;align-items:center}
.check input{width:auto;min-height:0}
.business:not(:has(#business:checked)) .business-fields{display:none}
a.button{display:inline-block;text-decoration:none;font-weight:600;padding:.55rem 1rem;border:2px solid var(--accent,#1d4ed8);border-radius:.5rem;min-height:2.75rem}
`;

/** The hosted checkout's stylesheet, served from /checkout/assets/ (no inline style under the CSP): the hosted pages' own, the discount field's, the business field's. */
export const CHECKOUT_CSS = HOSTED_CSS + DISCOUNT_CSS + BUSINESS_CSS;

/**
 * With JavaScript: a change of plan, period, quantity or country re-prices the page in
 * place. The form is posted as "Update price" would post it (the button works without
 * JavaScript too), and from the server's page only the price table, the pay button's
 * words and, when the plan's choices differ, the choices are put in place: the page
 * does not navigate, so a keyboard user browsing a list with the arrow keys keeps focus
 * and position (WCAG 3.2.2). Answers that arrive out of order are dropped; a page that
 * cannot be updated in place (a failed request, another currency for Stripe's field,
 * a pay button that appears or goes) is posted back as it would be without JavaScript.
 */
const REPRICE_JS = `
document.documentElement.classList.add('js');
var form = document.getElementById('checkout-form');
var update = document.getElementById('update-price');
(function () {
  if (!form || !update || !window.fetch || !window.DOMParser) return;
  var latest = 0;
  function shape(root) {
    var parts = [];
    if (root) root.querySelectorAll('select, input').forEach(function (el) {
      parts.push(el.name + ':' + el.type + ':' + Array.prototype.map.call(el.options || [], function (o) { return o.value; }).join(','));
    });
    return parts.join('|');
  }
  function payment(root) {
    var mount = root.querySelector('#payment-element');
    return (root.querySelector('#pay') ? 'pay' : 'none') + ':' + (mount ? mount.getAttribute('data-currency') : '');
  }
  function put(next) {
    if (payment(next) !== payment(document)) return false;
    var choices = document.getElementById('choices');
    var nextChoices = next.getElementById('choices');
    if (choices && nextChoices && shape(choices) !== shape(nextChoices)) {
      var focused = document.activeElement && document.activeElement.id;
      choices.innerHTML = nextChoices.innerHTML;
      bind(choices);
      var again = focused && document.getElementById(focused);
      if (again) again.focus();
    }
    document.getElementById('summary').innerHTML = next.getElementById('summary').innerHTML;
    var pay = document.getElementById('pay');
    if (pay) pay.textContent = next.getElementById('pay').textContent;
    return true;
  }
  function reprice() {
    var mine = ++latest;
    var body = new URLSearchParams();
    new FormData(form).forEach(function (value, key) { if (typeof value === 'string') body.append(key, value); });
    body.set('action', 'update');
    form.setAttribute('aria-busy', 'true');
    fetch(window.location.href, { method: 'POST', credentials: 'same-origin', body: body }).then(function (response) {
      if (!response.ok) throw new Error('answered ' + response.status);
      return response.text();
    }).then(function (text) {
      if (mine !== latest) return;
      form.removeAttribute('aria-busy');
      if (!put(new DOMParser().parseFromString(text, 'text/html'))) update.click();
    }).catch(function () {
      if (mine === latest) update.click();
    });
  }
  function bind(root) {
    root.querySelectorAll('[data-reprice]').forEach(function (el) { el.addEventListener('change', reprice); });
  }
  bind(form);
  // Once the form is posted (pay, or update as a fallback), answers still on their way are stale.
  form.addEventListener('submit', function () { latest++; });
})();
`;

/** The card number spaced as it is typed. */
const CARD_NUMBER_JS = `
var number = document.getElementById('card-number');
if (number) {
  number.addEventListener('input', function () {
    var digits = number.value.replace(/\\D/g, '').slice(0, 19);
    var spaced = digits.replace(/(\\d{4})(?=\\d)/g, '$1 ');
    if (spaced !== number.value) number.value = spaced;
  });
}
`;

export const CHECKOUT_JS = REPRICE_JS + CARD_NUMBER_JS + DISCOUNT_JS;

/** Content hashes, so the URLs change when the files do and can be cached for good. */
export const CSS_VERSION = createHash('sha256').update(CHECKOUT_CSS).digest('hex').slice(0, 12);
export const JS_VERSION = createHash('sha256').update(CHECKOUT_JS).digest('hex').slice(0, 12);
