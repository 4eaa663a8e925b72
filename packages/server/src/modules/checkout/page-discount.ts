import { currencySymbol, decimalText } from '../ledger/format.js';
import type { PageState } from './page-state.js';
import { html, type SafeHtml } from '../../page-kit/html.js';

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
 * The discount field (when the session allows codes), part of the page's one form: applying
 * a code without JavaScript posts everything typed so far, and the page comes back with it.
 * "Apply" posts the `discount` action, "Remove" `remove_discount`, and Enter in the field
 * the page's `enter`, which applies a code typed there (postedAction). With
 * JavaScript the buttons and Enter ask `data-quote-url` instead (assets-discount.ts). The
 * message under the field is a live region: a screen reader announces a code applied or
 * refused without a reload.
 */
export function discountField(state: PageState, prefix: string): SafeHtml | null {
  if (!state.session.discounts_enabled) return null;
  const notice = discountNotice(state);
  const applied = state.session.discount_code !== null && !notice.error;
  return html`<div id="discount" data-quote-url="${prefix}/checkout/${state.session.id}/discount/"><label for="discount-code">Discount code</label>
<div class="row discount-row"><div><input id="discount-code" name="discount_code" type="text" autocomplete="off" maxlength="100" value="${state.session.discount_code ?? ''}" aria-describedby="discount-message"${notice.error ? html` aria-invalid="true"` : null}></div>
<div class="fit"><button type="submit" name="action" value="discount" id="apply-discount" class="secondary inline">Apply</button></div>
<div class="fit"${applied ? null : html` hidden`}><button type="submit" name="remove_discount" value="1" id="remove-discount" class="secondary inline">Remove</button></div></div>
<p id="discount-message" class="hint discount-message${notice.error ? ' error' : ''}" role="status" aria-live="polite">${notice.text}</p></div>`;
}
