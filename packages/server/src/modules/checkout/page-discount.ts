import type { PageState } from './page-state.js';
import { html, type SafeHtml } from '../../page-kit/html.js';

/**
 * What the discount field says under itself: why a code was refused, or which code
 * applies and what it takes off. The same words whether the page was posted back or
 * the script applied the code (discount-quote.ts).
 */
export function discountNotice(state: PageState): { text: string; error: boolean } {
  const { t, money } = state.t;
  if (state.formProblem?.field === 'discount_code') return { text: state.t.problem(state.formProblem), error: true };
  const code = state.session.discount_code;
  if (!code || !state.session.discounts_enabled) return { text: '', error: false };
  // Discounts do not add up (decision 0036): a location's promotion that beats the code applies instead.
  if (state.promotion) return { text: t('discount.promotionWins', { code, percent: state.promotion.percentage }), error: false };
  if (state.codeIsPromotions) {
    return { text: t('discount.otherCountries', { code }), error: true };
  }
  const q = state.purchase?.quote;
  if (!q || q.discountMinor === 0) return { text: t('discount.applied', { code }), error: false };
  return { text: t('discount.appliedAmount', { code, amount: money(q.discountMinor, q.currency) }), error: false };
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
  const { t } = state.t;
  const notice = discountNotice(state);
  const applied = state.session.discount_code !== null && !notice.error;
  return html`<div id="discount" data-quote-url="${prefix}/checkout/${state.session.id}/discount/"><label for="discount-code">${t('discount.label')}</label>
<div class="row discount-row"><div><input id="discount-code" name="discount_code" type="text" autocomplete="off" maxlength="100" value="${state.session.discount_code ?? ''}" aria-describedby="discount-message"${notice.error ? html` aria-invalid="true"` : null}></div>
<div class="fit"><button type="submit" name="action" value="discount" id="apply-discount" class="secondary inline">${t('discount.apply')}</button></div>
<div class="fit"${applied ? null : html` hidden`}><button type="submit" name="remove_discount" value="1" id="remove-discount" class="secondary inline">${t('discount.remove')}</button></div></div>
<p id="discount-message" class="hint discount-message${notice.error ? ' error' : ''}" role="status" aria-live="polite">${notice.text}</p></div>`;
}
