import { currencySymbol, decimalText } from '../ledger/format.js';
import type { PageState } from './complete.js';
import { html, type SafeHtml } from '../../hosted/html.js';

/**
 * What the discount field says under itself: why a code was refused, or which code
 * applies and what it takes off. The same words whether the page was posted back or
 * the script applied the code (discount-quote.ts).
 */
export function discountNotice(state: PageState): { text: string; error: boolean } {
  if (state.formProblem?.field === 'discount_code') return { text: state.formProblem.message, error: true };
  const code = state.session.discount_code;
  if (!code || !state.session.discounts_enabled) return { text: '', error: false };
  // Discounts do not add up (decision 0036): a location's promotion that beats the code applies instead.
  if (state.promotion) return { text: `Code "${code}" accepted; the promotional price (${state.promotion.percentage} % off) applies, as the better discount: discounts do not add up.`, error: false };
  if (state.codeIsPromotions) {
    return { text: `Code "${code}" takes nothing off here: it belongs to a promotion for buyers in other countries, so the price is the list price.`, error: true };
  }
  const q = state.purchase?.quote;
  if (!q || q.discountMinor === 0) return { text: `Code "${code}" applied.`, error: false };
  return { text: `Code "${code}" applied: ${currencySymbol(q.currency)}${decimalText(q.discountMinor, q.currency)} off.`, error: false };
}

/**
 * The discount field (when the session allows codes). It belongs to a form of its own,
 * so that Enter in it applies the code and Enter elsewhere pays. The message under it is
 * a live region: a screen reader announces a code applied or refused without a reload.
 */
export function discountField(state: PageState): SafeHtml | null {
  if (!state.session.discounts_enabled) return null;
  const notice = discountNotice(state);
  const applied = state.session.discount_code !== null && !notice.error;
  return html`<label for="discount-code">Discount code</label>
<div class="row discount-row"><div><input id="discount-code" name="discount_code" form="discount-form" type="text" autocomplete="off" maxlength="100" value="${state.session.discount_code ?? ''}" aria-describedby="discount-message"${notice.error ? html` aria-invalid="true"` : null}></div>
<div class="fit"><button type="submit" form="discount-form" id="apply-discount" class="secondary inline">Apply</button></div>
<div class="fit"${applied ? null : html` hidden`}><button type="submit" form="discount-form" name="remove_discount" value="1" id="remove-discount" class="secondary inline">Remove</button></div></div>
<p id="discount-message" class="hint discount-message${notice.error ? ' error' : ''}" role="status" aria-live="polite">${notice.text}</p>`;
}

/** The discount field's own form: the selection rides along; with JavaScript it asks `data-quote-url` instead of posting back. */
export function discountForm(state: PageState, prefix: string): SafeHtml | null {
  if (!state.session.discounts_enabled) return null;
  const sel = state.selection;
  return html`<form id="discount-form" method="post" action="" data-quote-url="${prefix}/checkout/${state.session.id}/discount/">
<input type="hidden" name="csrf_token" value="${state.csrf}">
<input type="hidden" name="action" value="discount">
<input type="hidden" name="plan" value="${sel.plan}"><input type="hidden" name="period" value="${sel.period}">
<input type="hidden" name="country" value="${sel.country ?? ''}">
${Object.entries(sel.quantities).map(([k, v]) => html`<input type="hidden" name="qty_${k}" value="${v}">`)}
</form>`;
}
