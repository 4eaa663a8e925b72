/**
 * The hosted page of a due payment (decision 0035): what is owed, the customer's email
 * (theirs, not editable), the card, and Pay; the same layout, stylesheet, script and
 * policy as the checkout page (page.ts).
 */
import { currencySymbol, decimalText } from '../ledger/format.js';
import { html, type SafeHtml } from '../../page-kit/html.js';
import { sellerFooter, sellerHeader } from '../../page-kit/seller.js';
import type { SellerOnPages } from '../seller-profile/queries.js';
import { layout, noProviderNotice } from './page.js';
import type { SessionRow } from './repo.js';
import { stripeAuthentication, stripeCardFields, type StripeOnPage } from './stripe-element.js';

export interface DueState {
  session: SessionRow;
  productName: string;
  /** What the payment is for, e.g. "Change to Pro (MONTHLY)". */
  what: string;
  amountMinor: number;
  currency: string;
  csrf: string;
  sandbox: boolean;
  providerReady: boolean;
  email: string;
  problem: { field: string | null; message: string } | null;
  /** The card asks the buyer to authenticate the payment: the page shows that step instead of the form. */
  authenticate: boolean;
  /** Cards are taken by Stripe's Payment Element (never a card field on the page); null: the sandbox's test cards. */
  stripe: StripeOnPage | null;
  /** Who is paid: the seller's name, logo, colour and legal links. */
  seller: SellerOnPages;
}

export type DueClosedReason = 'paid' | 'expired' | 'ended';

const money = (minor: number, currency: string) => `${currencySymbol(currency)}${decimalText(minor, currency)}`;
export const prefixOfSession = (session: SessionRow) => (session.environment === 'sandbox' ? '/sandbox' : '');

/** Whether the page loads Stripe.js (and so needs Stripe's sources in its policy). */
export const dueUsesStripeJs = (state: Pick<DueState, 'stripe'>): boolean => state.stripe?.publishableKey != null;

const payButton = (state: DueState) => html`<button type="submit" name="action" value="pay" id="pay">Pay ${money(state.amountMinor, state.currency)}</button>`;

function banner(state: DueState): SafeHtml | null {
  if (!state.sandbox || state.stripe) return null;
  return html`<p class="banner" role="note">Sandbox: no real money moves. Pay with the test card 4242 4242 4242 4242, any future expiry and any CVC.</p>`;
}

function cardFields(state: DueState): SafeHtml {
  if (state.stripe) return state.stripe.publishableKey ? html`${stripeCardFields(state.stripe, state.currency)}${payButton(state)}` : stripeCardFields(state.stripe, state.currency);
  if (!state.providerReady) return html`<p class="hint">Card payments are not available here yet (see the notice at the top).</p>`;
  const invalid = (field: string) => (state.problem?.field === field ? html` aria-invalid="true" aria-describedby="card-error"` : null);
  return html`<h2>Card</h2>
<label for="card-number">Card number</label>
<input id="card-number" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number" required maxlength="23" placeholder="4242 4242 4242 4242"${invalid('card_number')}>
<div class="row">
<div><label for="expiry">Expiry (MM / YY)</label>
<input id="expiry" name="expiry" type="text" inputmode="numeric" autocomplete="cc-exp" required maxlength="9" placeholder="12 / 30"${invalid('expiry')}></div>
<div><label for="cvc">CVC</label>
<input id="cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc" required maxlength="4" placeholder="123"${invalid('cvc')}></div>
</div>
${payButton(state)}`;
}

function sandboxAuthentication(state: DueState): SafeHtml {
  return html`${state.sandbox ? html`<p class="hint">Sandbox: choose how the test card 4000 0025 0000 3155 answers.</p>` : null}
<form method="post" action="">
<input type="hidden" name="csrf_token" value="${state.csrf}">
<button type="submit" name="action" value="authenticate_approve" id="approve">Approve the payment</button>
<button type="submit" name="action" value="authenticate_fail" id="fail" class="secondary">Fail authentication</button>
</form>`;
}

function authenticationStep(state: DueState): string {
  const body = html`${banner(state)}
<section class="card" aria-labelledby="auth-title">
<h1 id="auth-title">Confirm your payment</h1>
<p>Your card issuer asks you to confirm the payment of ${money(state.amountMinor, state.currency)} to ${state.seller.displayName}.</p>
${state.stripe ? stripeAuthentication(state.stripe, state.csrf) : sandboxAuthentication(state)}
</section>
${sellerFooter(state.seller)}`;
  return layout('Confirm your payment', prefixOfSession(state.session), body, dueUsesStripeJs(state), state.seller.brandColor);
}

/** The page of an open due session. */
export function duePage(state: DueState): string {
  if (state.authenticate) return authenticationStep(state);
  const problem = state.problem
    ? html`<div class="problem" role="alert" id="form-problem"${state.problem.field === 'card_number' ? html` data-field="card-error"` : null}><span id="card-error">${state.problem.message}</span></div>`
    : null;
  const title = state.session.purpose === 'invoice' ? 'Pay your invoice' : 'Confirm your plan change';
  const body = html`${banner(state)}
${state.stripe || state.providerReady ? null : noProviderNotice()}
${sellerHeader(state.seller)}
<form id="checkout-form" method="post" action="" novalidate>
<input type="hidden" name="csrf_token" value="${state.csrf}">
<section class="card" aria-labelledby="due-title">
<p class="hint">${state.productName}</p>
<h1 id="due-title">${title}</h1>
<table aria-label="Amount due">
<tbody>
<tr><td>${state.what}</td><td class="amount">${money(state.amountMinor, state.currency)}</td></tr>
<tr class="total"><td>Due now</td><td class="amount" id="total">${money(state.amountMinor, state.currency)}</td></tr>
</tbody>
</table>
<p class="hint">Billed to ${state.email || 'your account'}.</p>
</section>
${problem}
<section class="card">${cardFields(state)}</section>
</form>
${sellerFooter(state.seller)}`;
  return layout(`${title}: ${state.productName}`, prefixOfSession(state.session), body, dueUsesStripeJs(state), state.seller.brandColor);
}

const CLOSED: Record<DueClosedReason, { title: string; text: string }> = {
  paid: { title: 'This payment is complete', text: 'The payment was received. Nothing more is needed here, and nothing will be charged again.' },
  expired: { title: 'This payment link has expired', text: 'Ask the seller for a new link.' },
  ended: { title: 'This plan change is no longer waiting for payment', text: 'It was completed, or its time ran out and your current plan stayed as it was. Nothing was charged on this page.' },
};

/** A paid invoice or change, or one that can no longer be paid: a clear page, never a second charge. */
export function dueClosedPage(prefix: string, reason: DueClosedReason): string {
  const { title, text } = CLOSED[reason];
  return layout(title, prefix, html`<section class="card"><h1>${title}</h1><p>${text}</p></section>`);
}
