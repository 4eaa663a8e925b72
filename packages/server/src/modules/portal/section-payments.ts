import { html, type SafeHtml } from '../../page-kit/html.js';
import { stripeMountPoint } from '../../page-kit/stripe-element.js';
import { buttonForm, hiddenFields, type PageState } from './page-state.js';

const cardText = (data: Record<string, unknown>) =>
  `${String(data.brand ?? 'Card').toUpperCase()} ending in ${String(data.last4 ?? '????')}, expires ${String(data.expMonth ?? '?').padStart(2, '0')}/${String(data.expYear ?? '?')}`;

/** Stripe's Payment Element (never a card field): the script posts the PaymentMethod it created, which the server attaches. */
function stripeCardForm(state: PageState, publishableKey: string | null): SafeHtml {
  if (!publishableKey) {
    return html`<p class="hint">Adding a card here is not possible yet: the seller has not finished setting up payments.</p>`;
  }
  return html`<details><summary>Add a card</summary>
<form method="post" action="${state.path}" id="add-card-form">${hiddenFields(state, 'add_card')}
${stripeMountPoint(publishableKey, 'usd', 'add_card')}
<label><input type="checkbox" name="make_default" value="1"> Use this card for future payments</label>
<button type="submit" value="add_card" id="save-card">Save card</button>
</form></details>`;
}

function addCardForm(state: PageState): SafeHtml {
  if (state.stripe) return stripeCardForm(state, state.stripe.publishableKey);
  if (!state.sandbox) {
    return html`<p class="hint">Adding a card here needs a payment provider, and none is configured for this seller yet.</p>`;
  }
  return html`<details><summary>Add a card</summary>
<form method="post" action="${state.path}" autocomplete="off">${hiddenFields(state, 'add_card')}
<p class="banner" role="note">Sandbox: use a test card such as 4242 4242 4242 4242, any future expiry and any CVC.</p>
<label for="card-number">Card number</label>
<input id="card-number" name="card_number" inputmode="numeric" autocomplete="cc-number" maxlength="23" required>
<div class="row"><div><label for="card-expiry">Expiry (MM / YY)</label><input id="card-expiry" name="expiry" autocomplete="cc-exp" placeholder="MM / YY" maxlength="7" required></div>
<div><label for="card-cvc">CVC</label><input id="card-cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required></div></div>
<label><input type="checkbox" name="make_default" value="1"> Use this card for future payments</label>
<button type="submit">Save card</button>
</form></details>`;
}

export function paymentsSection(state: PageState): SafeHtml {
  const methods = state.model.methods;
  const rows = methods.map((m) => {
    const actions = m.isDefault
      ? html`<p class="hint">Your default card: renewals are charged to it.</p>`
      : html`<div class="actions">${buttonForm(state, 'make_default', { method: String(m.id) }, 'Make default')}${buttonForm(state, 'remove_card', { method: String(m.id) }, 'Remove')}</div>`;
    return html`<div class="item" id="method-${String(m.id)}"><h3>${cardText(m.methodData as Record<string, unknown>)}${m.isDefault ? html` <span class="status active">default</span>` : null}</h3>${actions}</div>`;
  });
  const empty = methods.length === 0 ? html`<p>No saved payment methods.</p>` : null;
  return html`<section class="card" id="payment-methods" aria-labelledby="methods-title"><h2 id="methods-title">Payment methods</h2>${empty}${rows}${addCardForm(state)}</section>`;
}
