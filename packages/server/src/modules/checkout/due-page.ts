/**
 * The hosted page of a due payment (decision 0035): what is owed, the customer's email
 * (theirs, not editable), the card, and Pay; the same layout, stylesheet, script and
 * policy as the checkout page (page.ts), in the buyer's language (decision 0068).
 */
import { html, type SafeHtml } from '../../page-kit/html.js';
import type { BuyerProblem, Translator } from '../../page-kit/i18n.js';
import { sellerFooter, sellerHeader } from '../../page-kit/seller.js';
import type { SellerOnPages } from '../seller-profile/queries.js';
import { layout, noProviderNotice } from './page.js';
import type { SessionRow } from './repo.js';
import { stripeAuthentication, stripeCardFields, type StripeOnPage } from './stripe-element.js';

/** What the payment is for: an invoice by its number, or a plan change with the period it will bill by. */
export type DueLine = { kind: 'invoice'; number: string } | { kind: 'change'; plan: string; period: string };

export interface DueState {
  session: SessionRow;
  productName: string;
  line: DueLine;
  amountMinor: number;
  currency: string;
  csrf: string;
  sandbox: boolean;
  providerReady: boolean;
  email: string;
  problem: BuyerProblem | null;
  /** The card asks the buyer to authenticate the payment: the page shows that step instead of the form. */
  authenticate: boolean;
  /** Cards are taken by Stripe's Payment Element (never a card field on the page); null: the sandbox's test cards. */
  stripe: StripeOnPage | null;
  /** Who is paid: the seller's name, logo, colour and legal links. */
  seller: SellerOnPages;
  /** The paying customer's own locale, when set: the page's language follows it first. */
  customerLocale: string | null;
  /** The page's words and money format (English until the route negotiates the buyer's language). */
  t: Translator;
}

export type DueClosedReason = 'paid' | 'expired' | 'ended';

export const prefixOfSession = (session: SessionRow) => (session.environment === 'sandbox' ? '/sandbox' : '');

/** Whether the page loads Stripe.js (and so needs Stripe's sources in its policy). */
export const dueUsesStripeJs = (state: Pick<DueState, 'stripe'>): boolean => state.stripe?.publishableKey != null;

const amountText = (state: DueState) => state.t.money(state.amountMinor, state.currency);

const payButton = (state: DueState) => html`<button type="submit" name="action" value="pay" id="pay">${state.t.t('pay.amount', { amount: amountText(state) })}</button>`;

function banner(state: DueState): SafeHtml | null {
  if (!state.sandbox || state.stripe) return null;
  return html`<p class="banner" role="note">${state.t.t('page.sandbox')}</p>`;
}

function cardFields(state: DueState): SafeHtml {
  const { t } = state.t;
  if (state.stripe) return state.stripe.publishableKey ? html`${stripeCardFields(state.stripe, state.currency)}${payButton(state)}` : stripeCardFields(state.stripe, state.currency);
  if (!state.providerReady) return html`<p class="hint">${t('card.unavailable')}</p>`;
  const invalid = (field: string) => (state.problem?.field === field ? html` aria-invalid="true" aria-describedby="card-error"` : null);
  return html`<h2>${t('card.title')}</h2>
<label for="card-number">${t('card.number')}</label>
<input id="card-number" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number" required maxlength="23" placeholder="4242 4242 4242 4242"${invalid('card_number')}>
<div class="row">
<div><label for="expiry">${t('card.expiry')}</label>
<input id="expiry" name="expiry" type="text" inputmode="numeric" autocomplete="cc-exp" required maxlength="9" placeholder="12 / 30"${invalid('expiry')}></div>
<div><label for="cvc">${t('card.cvc')}</label>
<input id="cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc" required maxlength="4" placeholder="123"${invalid('cvc')}></div>
</div>
${payButton(state)}`;
}

function sandboxAuthentication(state: DueState): SafeHtml {
  const { t } = state.t;
  return html`${state.sandbox ? html`<p class="hint">${t('auth.sandbox')}</p>` : null}
<form method="post" action="">
<input type="hidden" name="csrf_token" value="${state.csrf}">
<button type="submit" name="action" value="authenticate_approve" id="approve">${t('auth.approve')}</button>
<button type="submit" name="action" value="authenticate_fail" id="fail" class="secondary">${t('auth.fail')}</button>
</form>`;
}

function authenticationStep(state: DueState): string {
  const { t } = state.t;
  const body = html`${banner(state)}
<section class="card" aria-labelledby="auth-title">
<h1 id="auth-title">${t('auth.title')}</h1>
<p>${t('auth.askAmount', { amount: amountText(state), seller: state.seller.displayName })}</p>
${state.stripe ? stripeAuthentication(state.stripe, state.csrf) : sandboxAuthentication(state)}
</section>
${sellerFooter(state.seller, state.t)}`;
  return layout(t('auth.title'), prefixOfSession(state.session), body, dueUsesStripeJs(state), state.seller.brandColor, state.t.lang);
}

/** The line of the table: "Invoice INV-…", "Change to Pro, billed monthly" (never a period's wire code). */
function lineWords(line: DueLine, { t }: Translator): string {
  return line.kind === 'invoice' ? t('due.invoiceLine', { number: line.number }) : t('due.changeLine', { plan: line.plan, period: line.period });
}

/** The page of an open due session. */
export function duePage(state: DueState): string {
  if (state.authenticate) return authenticationStep(state);
  const { t } = state.t;
  const problem = state.problem
    ? html`<div class="problem" role="alert" id="form-problem"${state.problem.field === 'card_number' ? html` data-field="card-error"` : null}><span id="card-error">${state.t.problem(state.problem)}</span></div>`
    : null;
  const invoice = state.line.kind === 'invoice';
  const amount = amountText(state);
  const body = html`${banner(state)}
${state.stripe || state.providerReady ? null : noProviderNotice(state.t)}
${sellerHeader(state.seller)}
<form id="checkout-form" method="post" action="" novalidate>
<input type="hidden" name="csrf_token" value="${state.csrf}">
<section class="card" aria-labelledby="due-title">
<p class="hint">${state.productName}</p>
<h1 id="due-title">${t(invoice ? 'due.invoiceTitle' : 'due.changeTitle')}</h1>
<table aria-label="${t('due.amountDue')}">
<tbody>
<tr><td id="due-line">${lineWords(state.line, state.t)}</td><td class="amount">${amount}</td></tr>
<tr class="total"><td>${t('due.dueNow')}</td><td class="amount" id="total">${amount}</td></tr>
</tbody>
</table>
<p class="hint">${state.email ? t('due.billedTo', { email: state.email }) : t('due.billedToAccount')}</p>
</section>
${problem}
<section class="card">${cardFields(state)}</section>
</form>
${sellerFooter(state.seller, state.t)}`;
  const title = t(invoice ? 'due.invoicePageTitle' : 'due.changePageTitle', { product: state.productName });
  return layout(title, prefixOfSession(state.session), body, dueUsesStripeJs(state), state.seller.brandColor, state.t.lang);
}

const CLOSED = {
  paid: ['due.paidTitle', 'due.paidText'],
  expired: ['due.expiredTitle', 'due.expiredText'],
  ended: ['due.endedTitle', 'due.endedText'],
} as const;

/** A paid invoice or change, or one that can no longer be paid: a clear page, never a second charge. */
export function dueClosedPage(prefix: string, reason: DueClosedReason, tr: Translator, seller: SellerOnPages | null = null): string {
  const [title, text] = CLOSED[reason];
  const body = html`${seller ? sellerHeader(seller) : null}<section class="card"><h1>${tr.t(title)}</h1><p>${tr.t(text)}</p></section>${seller ? sellerFooter(seller, tr) : null}`;
  return layout(tr.t(title), prefix, body, false, seller?.brandColor ?? null, tr.lang);
}
