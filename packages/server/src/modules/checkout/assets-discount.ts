/**
 * The discount field's part of the page's script and stylesheet (assets.ts serves them
 * in its files). With JavaScript, "Apply", "Remove" and Enter in the field ask the page's
 * JSON quote (discount-quote.ts) instead of posting the page back: the price table and the
 * pay button are replaced by the server's own rendering, and the message under the field
 * (a live region) says what happened. Only the fields that price the page are sent (never
 * the card). Should the request fail outright, the button posts the page's form as it
 * would without JavaScript.
 */
export const DISCOUNT_JS = `
(function () {
  var box = document.getElementById('discount');
  var form = document.getElementById('checkout-form');
  var input = document.getElementById('discount-code');
  var apply = document.getElementById('apply-discount');
  var message = document.getElementById('discount-message');
  if (!box || !form || !input || !apply || !message || !window.fetch) return;
  var remove = document.getElementById('remove-discount');
  var PRICING = /^(csrf_token|plan|period|country|business|tax_id|discount_code|qty_.+)$/;
  var pending = false;
  var postingBack = false;
  function say(text, error) {
    message.textContent = text;
    message.classList.toggle('error', error);
    if (error) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
  }
  function show(answer) {
    var summary = document.getElementById('summary');
    if (summary) summary.innerHTML = answer.summaryHtml;
    var pay = document.getElementById('pay');
    if (pay) pay.textContent = answer.payLabel;
    input.value = answer.discountCode || '';
    if (remove) {
      if (!answer.discountCode && document.activeElement === remove) input.focus();
      remove.parentElement.hidden = !answer.discountCode;
    }
    say(answer.message, false);
  }
  function send(removing) {
    if (pending) return;
    var fields = [['action', 'discount']];
    new FormData(form).forEach(function (value, key) { if (typeof value === 'string' && PRICING.test(key)) fields.push([key, value]); });
    if (removing) fields.push(['remove_discount', '1']);
    pending = true;
    box.setAttribute('aria-busy', 'true');
    fetch(box.getAttribute('data-quote-url'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ fields: fields }),
    }).then(function (response) {
      return response.json().then(function (body) {
        if (response.ok) show(body);
        else say(body.detail || 'The code could not be applied. Try again.', true);
      });
    }).catch(function () {
      postingBack = true;
      (removing ? remove : apply).click();
    }).then(function () {
      pending = false;
      box.removeAttribute('aria-busy');
    });
  }
  function answeredInPlace(removing) {
    return function (event) {
      if (postingBack) return;
      event.preventDefault();
      send(removing);
    };
  }
  apply.addEventListener('click', answeredInPlace(false));
  if (remove) remove.addEventListener('click', answeredInPlace(true));
  input.addEventListener('keydown', function (event) {
    if (event.key !== 'Enter' || event.isComposing) return;
    event.preventDefault();
    send(false);
  });
})();
`;

export const DISCOUNT_CSS = `
.discount-message{min-height:1.3rem}
.discount-row{flex-wrap:wrap}.discount-row>div:first-child{flex:1 1 11rem}
.discount-message.error{color:#b91c1c;font-weight:600}
`;
