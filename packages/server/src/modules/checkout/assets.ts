import { createHash } from 'node:crypto';
import { HOSTED_CSS } from '../../hosted/styles.js';
import { DISCOUNT_CSS, DISCOUNT_JS } from './assets-discount.js';

/** The hosted checkout's stylesheet, served from /checkout/assets/ (no inline style under the CSP): the hosted pages' own and the discount field's. */
export const CHECKOUT_CSS = HOSTED_CSS + DISCOUNT_CSS;

/**
 * With JavaScript: a change of plan, period, quantity or country re-prices the
 * page at once (it presses the "Update price" button of the form, which works
 * without JavaScript too), and the card number is spaced as it is typed.
 */
export const CHECKOUT_JS = `
document.documentElement.classList.add('js');
var form = document.getElementById('checkout-form');
var update = document.getElementById('update-price');
if (form && update) {
  form.querySelectorAll('[data-reprice]').forEach(function (el) {
    el.addEventListener('change', function () { update.click(); });
  });
}
var number = document.getElementById('card-number');
if (number) {
  number.addEventListener('input', function () {
    var digits = number.value.replace(/\\D/g, '').slice(0, 19);
    var spaced = digits.replace(/(\\d{4})(?=\\d)/g, '$1 ');
    if (spaced !== number.value) number.value = spaced;
  });
}
` + DISCOUNT_JS;

/** Content hashes, so the URLs change when the files do and can be cached for good. */
export const CSS_VERSION = createHash('sha256').update(CHECKOUT_CSS).digest('hex').slice(0, 12);
export const JS_VERSION = createHash('sha256').update(CHECKOUT_JS).digest('hex').slice(0, 12);
