import { html, type SafeHtml } from '../../page-kit/html.js';
import { stripeMountPoint } from '../../page-kit/stripe-element.js';
import { buttonForm, hiddenFields, type PageState } from './page-state.js';

/** "VISA ending in 4242, expires 12/2030": the brand is a name, the expiry as printed on the card. */
const cardText = (state: PageState, data: Record<string, unknown>) =>
  state.t.t('methods.card', {
    brand: String(data.brand ?? 'Card').toUpperCase(),
    last4: String(data.last4 ?? '????'),
    expiry: `${String(data.expMonth ?? '?').padStart(2, '0')}/${String(data.expYear ?? '?')}`,
  });

/** Stripe's Payment Element (never a card field): the script posts the PaymentMethod it created, which the server attaches. */
function stripeCardForm(state: PageState, publishableKey: string | null): SafeHtml {
  const { t } = state.t;
  if (!publishableKey) {
    return html`<p class="hint">${t('methods.notReady')}</p>`;
  }
  return html`<details><summary>${t('methods.add')}</summary>
<form method="post" action="${state.path}" id="add-card-form">${hiddenFields(state, 'add_card')}
${stripeMountPoint(publishableKey, 'usd', 'add_card')}
<label><input type="checkbox" name="make_default" value="1"> ${t('methods.useForFuture')}</label>
<button type="submit" value="add_card" id="save-card">${t('methods.save')}</button>
</form></details>`;
}

function addCardForm(state: PageState): SafeHtml {
  if (state.stripe) return stripeCardForm(state, state.stripe.publishableKey);
  const { t } = state.t;
  if (!state.sandbox) {
    return html`<p class="hint">${t('methods.noProvider')}</p>`;
  }
  // The expiry takes what people type: 0930, 09/30, 09 / 2030 (page-kit/card-form.ts).
  return html`<details><summary>${t('methods.add')}</summary>
<form method="post" action="${state.path}" autocomplete="off">${hiddenFields(state, 'add_card')}
<p class="banner" role="note">${t('methods.sandbox')}</p>
<label for="card-number">${t('card.number')}</label>
<input id="card-number" name="card_number" inputmode="numeric" autocomplete="cc-number" maxlength="23" required>
<div class="row"><div><label for="card-expiry">${t('card.expiry')}</label><input id="card-expiry" name="expiry" autocomplete="cc-exp" placeholder="12 / 30" maxlength="9" required></div>
<div><label for="card-cvc">${t('card.cvc')}</label><input id="card-cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required></div></div>
<label><input type="checkbox" name="make_default" value="1"> ${t('methods.useForFuture')}</label>
<button type="submit">${t('methods.save')}</button>
</form></details>`;
}

export function paymentsSection(state: PageState): SafeHtml {
  const methods = state.model.methods;
  const { t } = state.t;
  const rows = methods.map((m) => {
    const actions = m.isDefault
      ? html`<p class="hint">${t('methods.defaultHint')}</p>`
      : html`<div class="actions">${buttonForm(state, 'make_default', { method: String(m.id) }, t('methods.makeDefault'))}${buttonForm(state, 'remove_card', { method: String(m.id) }, t('methods.remove'))}</div>`;
    return html`<div class="item" id="method-${String(m.id)}"><h3>${cardText(state, m.methodData as Record<string, unknown>)}${m.isDefault ? html` <span class="status active">${t('methods.default')}</span>` : null}</h3>${actions}</div>`;
  });
  const empty = methods.length === 0 ? html`<p>${t('methods.none')}</p>` : null;
  return html`<section class="card" id="payment-methods" aria-labelledby="methods-title"><h2 id="methods-title">${t('portal.paymentMethods')}</h2>${empty}${rows}${addCardForm(state)}</section>`;
}
