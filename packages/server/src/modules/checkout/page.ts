import { countryName, countryNames } from '../../lib/countries.js';
import { ENGLISH, type Translator } from '../../page-kit/i18n.js';
import { CSS_VERSION, JS_VERSION } from './assets.js';
import type { PageState } from './page-state.js';
import { html, type SafeHtml } from '../../page-kit/html.js';
import { sellerFooter, sellerHeader } from '../../page-kit/seller.js';
import { brandStylesheet } from '../../page-kit/brand.js';
import { discountField } from './page-discount.js';
import { hostedDocument } from '../../page-kit/document.js';
import { stripeAuthentication, stripeCardFields } from './stripe-element.js';
import { includedList, lineText } from '../../page-kit/lines.js';

/** The page around every state: language, viewport, the stylesheet and script from /checkout/assets/ (and Stripe.js where cards go to Stripe). */
export function layout(title: string, prefix: string, body: SafeHtml, stripe = false, brandColor: string | null = null, lang = 'en'): string {
  const assets = { assetBase: `${prefix}/checkout/assets`, stylesheet: `checkout.${CSS_VERSION}.css`, script: `checkout.${JS_VERSION}.js` };
  return hostedDocument({ title, ...assets, brand: brandStylesheet(brandColor), stripe, body, lang });
}

function sandboxBanner(sandbox: boolean, { t }: Translator): SafeHtml | null {
  if (!sandbox) return null;
  return html`<p class="banner" role="note">${t('page.sandbox')}</p>`;
}

function fieldError(state: PageState, field: string): SafeHtml | null {
  if (state.formProblem?.field !== field) return null;
  return html`<p class="hint" id="${field}-error">${state.t.problem(state.formProblem)}</p>`;
}

const invalidAttrs = (state: PageState, field: string) =>
  state.formProblem?.field === field ? html` aria-invalid="true" aria-describedby="${field}-error"` : null;

function choices(state: PageState): SafeHtml {
  const { t } = state.t;
  const plan = state.plans.find((p) => p.identifier === state.selection.plan);
  const periods = plan?.periods ?? [state.selection.period];
  const planField =
    state.plans.length > 1
      ? html`<label for="plan">${t('field.plan')}</label>
<select id="plan" name="plan" data-reprice>${state.plans.map(
          (p) => html`<option value="${p.identifier}"${p.identifier === state.selection.plan ? html` selected` : null}>${p.name}</option>`,
        )}</select>`
      : html`<input type="hidden" name="plan" value="${state.selection.plan}">`;
  const periodField =
    periods.length > 1
      ? html`<label for="period">${t('field.period')}</label>
<select id="period" name="period" data-reprice>${periods.map(
          (p) => html`<option value="${p}"${p === state.selection.period ? html` selected` : null}>${state.t.period(p)}</option>`,
        )}</select>`
      : html`<input type="hidden" name="period" value="${state.selection.period}">`;
  const meters = state.meters.map(
    (m) => html`<label for="qty-${m.identifier}">${m.name}</label>
<input id="qty-${m.identifier}" name="qty_${m.identifier}" type="number" inputmode="numeric" min="${m.min}"${m.max !== null ? html` max="${m.max}"` : null} step="1" value="${m.quantity}" data-reprice>`,
  );
  return html`${planField}${periodField}${meters}`;
}

/** A promotion's discount says where it comes from (location pricing); a code's is a discount. */
function discountLabel(state: PageState): string {
  const { t } = state.t;
  if (state.promotion) {
    const country = countryName(state.promotion.countryCode, state.t.lang) || state.promotion.countryCode;
    return t('summary.promotion', { country, percent: state.promotion.percentage });
  }
  const payments = state.discountPayments;
  const recurring = state.purchase?.quote.chargePeriod !== 'ONE_TIME';
  if (payments === null || !recurring) return t('summary.discount');
  return t('summary.discountPayments', { count: payments });
}

/** The price table (also what the discount script puts in place, discount-quote.ts). */
export function summary(state: PageState): SafeHtml {
  const { t, money } = state.t;
  const purchase = state.purchase;
  // Why (state.problem) is the API's detail, with field names: the buyer reads that the selection cannot be bought.
  if (!purchase) return html`<p class="problem" role="alert" id="cannot-buy">${t('summary.cannotBuy')}</p>`;
  const q = purchase.quote;
  const taxLabel = q.taxReason === 'reverse_charge'
    ? html`<tr id="reverse-charge"><td>${t('summary.reverseCharge', { country: q.taxCountry ? state.t.country(q.taxCountry) : '' })}</td><td class="amount">${money(0, q.currency)}</td></tr>`
    : q.taxRateBp === 0
    ? null
    : html`<tr><td>${taxText(q, state.t)}</td><td class="amount">${money(q.taxMinor, q.currency)}</td></tr>`;
  const trial = state.trialDays > 0 ? html`<p class="hint">${t('summary.trial', { days: state.trialDays })}</p>` : null;
  const recurring = recurringSentence(state);
  const total = q.chargePeriod === 'ONE_TIME' ? t('summary.total') : t('summary.totalPeriod', { period: state.t.period(q.chargePeriod).toLocaleLowerCase(state.t.lang) });
  return html`${includedList(state.includes, state.t)}<table aria-label="${t('summary.price')}">
<tbody>
${q.lines.map((l) => html`<tr><td>${lineText(l, state.t)}</td><td class="amount">${money(l.amountMinor, q.currency)}</td></tr>`)}
${q.discountMinor > 0 ? html`<tr><td>${discountLabel(state)}</td><td class="amount">−${money(q.discountMinor, q.currency)}</td></tr>` : null}
${taxLabel}
${q.taxBehavior === 'INCLUSIVE' && q.taxMinor > 0 ? html`<tr><td>${t('summary.beforeTax')}</td><td class="amount" id="net">${money(q.totalMinor - q.taxMinor, q.currency)}</td></tr>` : null}
<tr class="total"><td>${total}</td><td class="amount" id="total">${money(q.totalMinor, q.currency)}</td></tr>
</tbody>
</table>${trial}${recurring ? html`<p class="hint" id="recurring">${recurring}</p>` : null}`;
}

/** The tax line: its rate and the country it is owed in, named in the buyer's language ("Tax 19 % (Germany)"). */
function taxText(q: { taxBehavior: string; taxRateBp: number; taxCountry: string | null }, tr: Translator): string {
  const rate = q.taxRateBp / 100;
  const included = q.taxBehavior === 'INCLUSIVE';
  if (!q.taxCountry) return tr.t(included ? 'summary.taxIncluded' : 'summary.tax', { rate });
  return tr.t(included ? 'summary.taxIncludedIn' : 'summary.taxIn', { rate, country: tr.country(q.taxCountry) });
}

/** The periods a subscription repeats by (the catalogue's sentences name each one). */
const RECURRING = new Set(['DAILY', 'WEEKLY', 'TWENTY_EIGHT_DAYS', 'MONTHLY', 'THREE_MONTHS', 'SIX_MONTHS', 'YEARLY']);

/** What a subscription will charge and until when, in the buyer's words (the price shown is the first payment's). */
function recurringSentence(state: PageState): string | null {
  const q = state.purchase?.quote;
  if (!q || !RECURRING.has(q.chargePeriod)) return null;
  const values = { trial: state.trialDays > 0 ? 'yes' : 'no', amount: state.t.money(q.totalMinor, q.currency), period: q.chargePeriod };
  const limited = q.discountMinor > 0 && !state.promotion && state.discountPayments !== null;
  if (!limited) return state.t.t('recurring.every', values);
  return state.t.t('recurring.limited', { ...values, payments: state.discountPayments });
}

function details(state: PageState): SafeHtml {
  const { t } = state.t;
  const locked = state.session.lock_email;
  const country = state.selection.country;
  return html`<h2>${t('details.title')}</h2>
<label for="email">${t('details.email')}</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${state.email}"${locked ? html` disabled aria-describedby="email-locked"` : invalidAttrs(state, 'email')}>
${locked ? html`<p class="hint" id="email-locked">${t('details.emailLocked')}</p>` : fieldError(state, 'email')}
<label for="name">${t('details.name')} <span class="hint">${t('details.optional')}</span></label>
<input id="name" name="name" type="text" autocomplete="name" maxlength="200" value="${state.name}">
<label for="country">${t('details.country')}</label>
<select id="country" name="country" autocomplete="country" required data-reprice${invalidAttrs(state, 'country')}>
<option value="">${t('details.chooseCountry')}</option>
${countryNames(state.t.lang).map((c) => html`<option value="${c.code}"${c.code === country ? html` selected` : null}>${c.name}</option>`)}
</select>
${fieldError(state, 'country')}
${businessField(state)}`;
}

/** "I'm buying as a business", with the business's tax id (checked when paying; an EU VAT id may mean a reverse charge). */
function businessField(state: PageState): SafeHtml {
  const { t } = state.t;
  return html`<div class="business">
<label class="check" for="business"><input type="checkbox" id="business" name="business" value="yes" data-reprice${state.business ? html` checked` : null}> ${t('business.buying')}</label>
<div class="business-fields">
<label for="tax-id">${t('business.taxId')} <span class="hint">${t('business.taxIdKinds')}</span></label>
<input id="tax-id" name="tax_id" type="text" autocomplete="off" maxlength="60" value="${state.taxId}" placeholder="FR40303265045" data-reprice${invalidAttrs(state, 'tax_id')}>
${fieldError(state, 'tax_id') ?? html`<p class="hint">${t('business.reverseCharge')}</p>`}
</div>
</div>`;
}

/** Said first on a page that cannot take a payment, before the buyer fills anything in. */
export const noProviderNotice = ({ t }: Translator = ENGLISH): SafeHtml =>
  html`<p class="problem" role="alert" id="no-provider">${t('card.noProvider')}</p>`;

function cardFields(state: PageState): SafeHtml {
  const { t } = state.t;
  if (!state.providerReady) return html`<p class="hint">${t('card.unavailable')}</p>`;
  if (state.stripe) return stripeCardFields(state.stripe, state.purchase?.quote.currency ?? 'usd');
  return html`<h2>${t('card.title')}</h2>
<label for="card-number">${t('card.number')}</label>
<input id="card-number" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number" required maxlength="23" placeholder="4242 4242 4242 4242"${invalidAttrs(state, 'card_number')}>
${fieldError(state, 'card_number')}
<div class="row">
<div><label for="expiry">${t('card.expiry')}</label>
<input id="expiry" name="expiry" type="text" inputmode="numeric" autocomplete="cc-exp" required maxlength="9" placeholder="12 / 30"${invalidAttrs(state, 'expiry')}>
${fieldError(state, 'expiry')}</div>
<div><label for="cvc">${t('card.cvc')}</label>
<input id="cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc" required maxlength="4" placeholder="123"${invalidAttrs(state, 'cvc')}>
${fieldError(state, 'cvc')}</div>
</div>`;
}

/** The card's authentication step (in the sandbox, a stand-in for the bank's 3-D Secure page). */
function authenticationPage(state: PageState, prefix: string): string {
  const { t, money } = state.t;
  const q = state.purchase?.quote;
  const ask = q ? t('auth.askAmount', { amount: money(q.totalMinor, q.currency), seller: state.productName }) : t('auth.ask', { seller: state.productName });
  const body = html`${sandboxBanner(state.sandbox, state.t)}
<section class="card" aria-labelledby="auth-title">
<h1 id="auth-title">${t('auth.title')}</h1>
<p>${ask}</p>
${state.stripe ? stripeAuthentication(state.stripe, state.csrf) : authenticationButtons(state)}
</section>`;
  return layout(t('auth.title'), prefix, body, usesStripeJs(state), null, state.t.lang);
}

/** The sandbox's stand-in for the bank's page: the buyer chooses how the test card answers. */
function authenticationButtons(state: PageState): SafeHtml {
  const { t } = state.t;
  return html`${state.sandbox ? html`<p class="hint">${t('auth.sandbox')}</p>` : null}
<form method="post" action="">
<input type="hidden" name="csrf_token" value="${state.csrf}">
<button type="submit" name="action" value="authenticate_approve" id="approve">${t('auth.approve')}</button>
<button type="submit" name="action" value="authenticate_fail" id="fail" class="secondary">${t('auth.fail')}</button>
</form>`;
}

/** The pay button's words: the total, or nothing today during a free trial. */
export function payLabel(state: PageState): string {
  const { t, money } = state.t;
  const q = state.purchase?.quote;
  if (!q) return t('pay.plain');
  return state.trialDays > 0 ? t('pay.nothingToday') : t('pay.amount', { amount: money(q.totalMinor, q.currency) });
}

/** The fields the page marks invalid and explains beneath, by form name: the control's id. */
const MARKED_FIELDS: Record<string, string> = { email: 'email', country: 'country', tax_id: 'tax-id', card_number: 'card-number', expiry: 'expiry', cvc: 'cvc', discount_code: 'discount-code' };

/**
 * Enter in a field submits the form as its first submit button would. The discount field's
 * "Apply" comes before "Pay", so this unseen first button takes Enter: it applies a code
 * typed in the discount field, and pays otherwise (postedAction).
 */
const ENTER_BUTTON = html`<button type="submit" name="action" value="enter" hidden></button>`;

/** The open session's page: choices, price, details, card and pay. */
export function checkoutPage(state: PageState, prefix: string): string {
  if (state.authenticate) return authenticationPage(state, prefix);
  const s = state.session;
  const marked = state.formProblem?.field && MARKED_FIELDS[state.formProblem.field];
  const general = !state.formProblem
    ? null
    : marked
      ? html`<div class="problem" role="alert" id="form-problem"><a href="#${marked}">${state.t.problem(state.formProblem)}</a></div>`
      : html`<div class="problem" role="alert" id="form-problem">${state.t.problem(state.formProblem)}</div>`;
  const canPay = state.providerReady && state.purchase !== null;
  const { t } = state.t;
  const body = html`${sandboxBanner(state.sandbox, state.t)}
${sellerHeader(state.seller)}
${state.providerReady ? null : noProviderNotice(state.t)}
<form id="checkout-form" method="post" action="" novalidate>
<input type="hidden" name="csrf_token" value="${state.csrf}">
${ENTER_BUTTON}
<section class="card" aria-labelledby="product-name">
${state.productImage ? html`<img class="product-image" src="${state.productImage.src}" alt="${state.productImage.alt}" width="640" height="480">` : null}
<p class="hint">${t('page.checkout')}</p>
<h1 id="product-name">${state.productName}</h1>
${state.productDescription ? html`<p>${state.productDescription}</p>` : null}
<div id="choices">${choices(state)}</div>
<div id="summary" aria-live="polite">${summary(state)}</div>
${discountField(state, prefix)}
</section>
${general}
<section class="card">${details(state)}</section>
<section class="card">${cardFields(state)}
${canPay ? html`<button type="submit" name="action" value="pay" id="pay">${payLabel(state)}</button>` : null}
<button type="submit" name="action" value="update" id="update-price" class="secondary no-js-only">${t('form.update')}</button>
<p class="hint no-js-only">${t('form.updateHint')}</p>
</section>
</form>
${s.cancel_url ? html`<p><a href="${s.cancel_url}">${t('form.cancel', { seller: state.seller.displayName })}</a></p>` : null}
${sellerFooter(state.seller, state.t)}`;
  return layout(t('page.checkoutTitle', { product: state.productName }), prefix, body, usesStripeJs(state), state.seller.brandColor, state.t.lang);
}

/** Whether the page loads Stripe.js: cards go to Stripe and the seller gave the publishable key. */
export const usesStripeJs = (state: PageState): boolean => state.stripe?.publishableKey != null;
