/**
 * The discount field's part of the page's script and stylesheet (assets.ts serves them
 * in its files). With JavaScript, "Apply" and "Remove" ask the page's JSON quote
 * (discount-quote.ts) instead of posting the page back: the price table and the pay
 * button are replaced by the server's own rendering, and the message under the field
 * (a live region) says what happened. Should the request fail outright, the form is
 * posted back as it would be without JavaScript.
 */
export const DISCOUNT_JS = `
(function () {
  var form = document.getElementById('discount-form');
  var input = document.getElementById('discount-code');
  var message = document.getElementById('discount-message');
  if (!form || !input || !message || !window.fetch) return;
  var remove = document.getElementById('remove-discount');
  var pending = false;
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
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (pending) return;
    var removing = remove && event.submitter === remove;
    var fields = [];
    new FormData(form).forEach(function (value, key) { fields.push([key, String(value)]); });
    if (removing) fields.push(['remove_discount', '1']);
    pending = true;
    form.setAttribute('aria-busy', 'true');
    fetch(form.getAttribute('data-quote-url'), {
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
      if (removing) {
        var flag = document.createElement('input');
        flag.type = 'hidden';
        flag.name = 'remove_discount';
        flag.value = '1';
        form.appendChild(flag);
      }
      form.submit();
    }).then(function () {
      pending = false;
      form.removeAttribute('aria-busy');
    });
  });
})();
`;

export const DISCOUNT_CSS = `
.discount-message{min-height:1.3rem}
.discount-row{flex-wrap:wrap}.discount-row>div:first-child{flex:1 1 11rem}
.discount-message.error{color:#b91c1c;font-weight:600}
`;
