import { CANCELLATION_FEEDBACK } from '@billow/contract';
import { html, type SafeHtml } from '../../page-kit/html.js';
import { money, periodName } from '../../page-kit/text.js';
import { percentText } from '../billing/rounding.compute.js';
import { buttonForm, dateText, hiddenFields, type ChangeAsked, type PageState } from './page-state.js';
import type { SubscriptionCard } from './reader.js';

const FEEDBACK_TEXT: Record<(typeof CANCELLATION_FEEDBACK)[number], string> = {
  TOO_EXPENSIVE: 'It is too expensive',
  MISSING_FEATURES: 'Features I need are missing',
  SWITCHED_SERVICE: 'I switched to another service',
  UNUSED: 'I do not use it enough',
  CUSTOMER_SERVICE: 'Customer service was not good enough',
  LOW_QUALITY: 'Quality was not good enough',
  TOO_COMPLEX: 'It is too complicated',
  OTHER: 'Another reason',
};

const LIVE = ['active', 'trialing', 'past_due'];
const statusText = (status: string) => status.replace('_', ' ');

function facts(card: SubscriptionCard): SafeHtml {
  const s = card.subscription;
  const currency = s.currency.toUpperCase();
  const next = card.upcoming
    ? html`<dt>Next invoice</dt><dd>${money(card.upcoming.amountTotalUnits, card.upcoming.currency)} on ${dateText(card.upcoming.nextPaymentAttempt)}</dd>`
    : null;
  const ends = s.endDate && LIVE.includes(s.status) ? html`<dt>Ends on</dt><dd>${dateText(s.endDate)} (cancelled, it will not renew)</dd>` : null;
  return html`<dl class="facts">
<dt>Price</dt><dd>${currency} ${s.amount} · ${periodName(s.chargePeriod)}</dd>
<dt>Current period</dt><dd>${dateText(s.billingPeriodStartTime)} to ${dateText(s.billingPeriodEndTime)}</dd>
${s.trialEnd && s.status === 'trialing' ? html`<dt>Trial ends</dt><dd>${dateText(s.trialEnd)}</dd>` : null}
${next}${ends}
</dl>`;
}

function unpaid(state: PageState, card: SubscriptionCard): SafeHtml | null {
  const invoice = card.unpaid;
  if (!invoice) return null;
  return html`<div class="problem" role="alert"><p>The payment of invoice <strong>${invoice.number ?? invoice.id}</strong> (${money(invoice.amountTotalUnits, invoice.currency)}) failed. Pay it now with your default card to keep your subscription.</p>
${buttonForm(state, 'pay_invoice', { invoice: invoice.id }, `Pay ${money(invoice.amountTotalUnits, invoice.currency)} now`, false)}</div>`;
}

function cancelForm(state: PageState, card: SubscriptionCard): SafeHtml {
  const id = card.subscription.id;
  return html`<details><summary>Cancel subscription</summary>
<form method="post" action="${state.path}">${hiddenFields(state, 'cancel', { subscription: id })}
<label for="feedback-${id}">Why are you cancelling? (optional)</label>
<select id="feedback-${id}" name="feedback"><option value="">Prefer not to say</option>${CANCELLATION_FEEDBACK.map((f) => html`<option value="${f}">${FEEDBACK_TEXT[f]}</option>`)}</select>
<label for="comment-${id}">Anything else? (optional)</label>
<input id="comment-${id}" name="comment" maxlength="2000" autocomplete="off">
<p class="hint">You keep access until ${dateText(card.subscription.billingPeriodEndTime)}; nothing renews after that.</p>
<button type="submit">Cancel at the end of the period</button>
</form></details>`;
}

function changePicker(state: PageState, card: SubscriptionCard, change: ChangeAsked | null): SafeHtml | null {
  const s = card.subscription;
  const options = card.choices.flatMap((plan) =>
    plan.periods
      .filter((period) => !(plan.identifier === s.plan.identifier && period === s.chargePeriod))
      .map((period) => ({ value: `${plan.identifier}|${period}`, label: `${plan.name} · ${periodName(period)}` })),
  );
  if (options.length === 0) return null;
  const chosen = change ? `${change.plan}|${change.period}` : null;
  return html`<details${change ? html` open` : null}><summary>Change plan or billing period</summary>
<form method="get" action="${state.path}"><input type="hidden" name="change" value="${s.id}">
<label for="choice-${s.id}">New plan</label>
<select id="choice-${s.id}" name="choice">${options.map((o) => html`<option value="${o.value}"${o.value === chosen ? html` selected` : null}>${o.label}</option>`)}</select>
<button type="submit" class="secondary">See the price</button>
</form></details>`;
}

function changePreview(state: PageState, card: SubscriptionCard, change: ChangeAsked): SafeHtml {
  const plan = card.choices.find((c) => c.identifier === change.plan);
  const name = `${plan?.name ?? change.plan} · ${periodName(change.period)}`;
  if (!change.preview) return html`<div class="problem" role="alert">${name}: ${change.problem ?? 'this change is not possible.'}</div>`;
  const p = change.preview;
  const signed = (minor: number) => (minor < 0 ? `−${money(-minor, p.currency)}` : money(minor, p.currency));
  const lines = p.lines.map((l) => html`<tr><td>${l.description}</td><td class="amount">${signed(l.amountMinor)}</td></tr>`);
  const discount = p.discountMinor > 0 ? html`<tr><td>Discount</td><td class="amount">−${money(p.discountMinor, p.currency)}</td></tr>` : null;
  const tax = p.taxReason === 'reverse_charge'
    ? html`<tr id="reverse-charge"><td>VAT 0 % (reverse charge: you account for the VAT)</td><td class="amount">${money(0, p.currency)}</td></tr>`
    : p.taxMinor > 0 ? html`<tr><td>Tax (${percentText(p.taxRateBp)} %)</td><td class="amount">${money(p.taxMinor, p.currency)}</td></tr>` : null;
  const refund = p.creditMinor > 0 ? html`<tr><td>Credit for the unused part of your plan (credit note)</td><td class="amount">${money(p.creditMinor, p.currency)}</td></tr>` : null;
  const credit = p.fromCreditMinor > 0 ? html`<tr><td>Paid from your credit</td><td class="amount">−${money(p.fromCreditMinor, p.currency)}</td></tr>` : null;
  const kept = p.creditAfterMinor > 0 ? html`<tr><td>Your credit for the next invoices</td><td class="amount" id="credit-after">${money(p.creditAfterMinor, p.currency)}</td></tr>` : null;
  return html`<section class="card" id="change-preview" aria-labelledby="change-title"><h3 id="change-title">Change to ${name}</h3>
<table>${lines}${discount}${tax}<tr><td>Due for the change</td><td class="amount">${money(p.dueMinor, p.currency)}</td></tr>${refund}${credit}
<tr class="total"><td>Charged now</td><td class="amount" data-testid="prorated-amount">${money(p.chargeMinor, p.currency)}</td></tr>${kept}</table>
<p class="hint">Then ${money(p.newAmountMinor, p.currency)} ${periodName(change.period).toLowerCase()}${p.periodEnd ? `, next on ${dateText(p.periodEnd)}` : ''}.</p>
<form method="post" action="${state.path}">${hiddenFields(state, 'change_plan', { subscription: card.subscription.id, plan: change.plan, period: change.period })}
<button type="submit">Confirm and pay ${money(p.chargeMinor, p.currency)}</button></form>
</section>`;
}

function subscriptionCard(state: PageState, card: SubscriptionCard): SafeHtml {
  const s = card.subscription;
  const live = LIVE.includes(s.status);
  const scheduled = live && s.endDate !== null;
  const change = state.change?.subscriptionId === s.id ? state.change : null;
  const actions = !live
    ? null
    : scheduled
      ? html`<div class="actions">${buttonForm(state, 'resume', { subscription: s.id }, 'Resume subscription', false)}</div>`
      : html`${changePicker(state, card, change)}${change ? changePreview(state, card, change) : null}${cancelForm(state, card)}`;
  return html`<article class="item" id="subscription-${s.id}" aria-labelledby="title-${s.id}">
<h3 id="title-${s.id}">${s.plan.name} <span class="status ${s.status}">${statusText(s.status)}</span></h3>
<p class="hint">${s.product}</p>
${facts(card)}${unpaid(state, card)}${actions}
</article>`;
}

export function subscriptionsSection(state: PageState): SafeHtml {
  const cards = state.model.subscriptions;
  const body = cards.length === 0 ? html`<p>You have no subscriptions.</p>` : cards.map((card) => subscriptionCard(state, card));
  return html`<section class="card" id="subscriptions" aria-labelledby="subscriptions-title"><h2 id="subscriptions-title">Subscriptions</h2>${body}</section>`;
}
