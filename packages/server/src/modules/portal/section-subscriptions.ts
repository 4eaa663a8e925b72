import { CANCELLATION_FEEDBACK } from '@billow/contract';
import { html, type SafeHtml } from '../../page-kit/html.js';
import type { MessageKey } from '../../page-kit/i18n.js';
import { lineText } from '../../page-kit/lines.js';
import { currencyDigits, toMinor } from '../../lib/money.js';
import { buttonForm, dateText, hiddenFields, type ChangeAsked, type PageState } from './page-state.js';
import type { SubscriptionCard } from './reader.js';

const LIVE = ['active', 'trialing', 'past_due'];

function facts(state: PageState, card: SubscriptionCard): SafeHtml {
  const { t, money } = state.t;
  const s = card.subscription;
  const next = card.upcoming
    ? html`<dt>${t('subscription.nextInvoice')}</dt><dd>${t('subscription.nextInvoiceValue', { amount: money(card.upcoming.amountTotalUnits, card.upcoming.currency), date: dateText(state, card.upcoming.nextPaymentAttempt) })}</dd>`
    : null;
  const ends = s.endDate && LIVE.includes(s.status) ? html`<dt>${t('subscription.endsOn')}</dt><dd>${t('subscription.endsOnValue', { date: dateText(state, s.endDate) })}</dd>` : null;
  return html`<dl class="facts">
<dt>${t('subscription.price')}</dt><dd>${t('subscription.priceValue', { amount: money(toMinor(Number(s.amount), currencyDigits(s.currency)), s.currency), period: state.t.period(s.chargePeriod) })}</dd>
<dt>${t('subscription.currentPeriod')}</dt><dd>${t('subscription.periodRange', { start: dateText(state, s.billingPeriodStartTime), end: dateText(state, s.billingPeriodEndTime) })}</dd>
${s.trialEnd && s.status === 'trialing' ? html`<dt>${t('subscription.trialEnds')}</dt><dd>${dateText(state, s.trialEnd)}</dd>` : null}
${next}${ends}
</dl>`;
}

function unpaid(state: PageState, card: SubscriptionCard): SafeHtml | null {
  const invoice = card.unpaid;
  if (!invoice) return null;
  const { t, money } = state.t;
  const amount = money(invoice.amountTotalUnits, invoice.currency);
  return html`<div class="problem" role="alert"><p>${t('subscription.unpaid', { number: invoice.number ?? invoice.id, amount })}</p>
${buttonForm(state, 'pay_invoice', { invoice: invoice.id }, t('subscription.payNow', { amount }), false)}</div>`;
}

function cancelForm(state: PageState, card: SubscriptionCard): SafeHtml {
  const { t } = state.t;
  const id = card.subscription.id;
  return html`<details><summary>${t('cancel.summary')}</summary>
<form method="post" action="${state.path}">${hiddenFields(state, 'cancel', { subscription: id })}
<label for="feedback-${id}">${t('cancel.why')}</label>
<select id="feedback-${id}" name="feedback"><option value="">${t('cancel.preferNot')}</option>${CANCELLATION_FEEDBACK.map((f) => html`<option value="${f}">${t(`cancel.${f}` as MessageKey)}</option>`)}</select>
<label for="comment-${id}">${t('cancel.comment')}</label>
<input id="comment-${id}" name="comment" maxlength="2000" autocomplete="off">
<p class="hint">${t('cancel.keep', { date: dateText(state, card.subscription.billingPeriodEndTime) })}</p>
<button type="submit">${t('cancel.submit')}</button>
</form></details>`;
}

function changePicker(state: PageState, card: SubscriptionCard, change: ChangeAsked | null): SafeHtml | null {
  const { t } = state.t;
  const s = card.subscription;
  const options = card.choices.flatMap((plan) =>
    plan.periods
      .filter((period) => !(plan.identifier === s.plan.identifier && period === s.chargePeriod))
      .map((period) => ({ value: `${plan.identifier}|${period}`, label: t('change.option', { plan: plan.name, period: state.t.period(period) }) })),
  );
  if (options.length === 0) return null;
  const chosen = change ? `${change.plan}|${change.period}` : null;
  return html`<details${change ? html` open` : null}><summary>${t('change.summary')}</summary>
<form method="get" action="${state.path}"><input type="hidden" name="change" value="${s.id}">
<label for="choice-${s.id}">${t('change.newPlan')}</label>
<select id="choice-${s.id}" name="choice">${options.map((o) => html`<option value="${o.value}"${o.value === chosen ? html` selected` : null}>${o.label}</option>`)}</select>
<button type="submit" class="secondary">${t('change.see')}</button>
</form></details>`;
}

/** The rows of a change's price: its lines, discount, tax, what is due, the credit given back and used. */
function previewRows(state: PageState, p: NonNullable<ChangeAsked['preview']>): SafeHtml {
  const { t, money } = state.t;
  const row = (label: string, amount: string, id: string | null = null) => html`<tr${id ? html` id="${id}"` : null}><td>${label}</td><td class="amount">${amount}</td></tr>`;
  const signed = (minor: number) => (minor < 0 ? `−${money(-minor, p.currency)}` : money(minor, p.currency));
  const tax = p.taxReason === 'reverse_charge'
    ? row(t('change.reverseCharge'), money(0, p.currency), 'reverse-charge')
    : p.taxMinor > 0 ? row(t('change.tax', { rate: p.taxRateBp / 100 }), money(p.taxMinor, p.currency)) : null;
  return html`${p.lines.map((l) => row(lineText(l, state.t), signed(l.amountMinor)))}
${p.discountMinor > 0 ? row(t('change.discount'), `−${money(p.discountMinor, p.currency)}`) : null}${tax}
${row(t('change.due'), money(p.dueMinor, p.currency))}
${p.creditMinor > 0 ? row(t('change.credit'), money(p.creditMinor, p.currency)) : null}
${p.fromCreditMinor > 0 ? row(t('change.fromCredit'), `−${money(p.fromCreditMinor, p.currency)}`) : null}`;
}

function changePreview(state: PageState, card: SubscriptionCard, change: ChangeAsked): SafeHtml {
  const { t, money } = state.t;
  const plan = card.choices.find((c) => c.identifier === change.plan);
  const name = t('change.option', { plan: plan?.name ?? change.plan, period: state.t.period(change.period) });
  if (!change.preview) {
    const said = change.problem ? t('change.refused', { plan: name, problem: state.t.problem(change.problem) }) : t('change.impossible', { plan: name });
    return html`<div class="problem" role="alert">${said}</div>`;
  }
  const p = change.preview;
  const kept = p.creditAfterMinor > 0 ? html`<tr><td>${t('change.creditAfter')}</td><td class="amount" id="credit-after">${money(p.creditAfterMinor, p.currency)}</td></tr>` : null;
  const then = { amount: money(p.newAmountMinor, p.currency), period: change.period };
  return html`<section class="card" id="change-preview" aria-labelledby="change-title"><h3 id="change-title">${t('change.title', { plan: name })}</h3>
<table>${previewRows(state, p)}
<tr class="total"><td>${t('change.chargedNow')}</td><td class="amount" data-testid="prorated-amount">${money(p.chargeMinor, p.currency)}</td></tr>${kept}</table>
<p class="hint">${p.periodEnd ? t('change.thenNext', { ...then, date: dateText(state, p.periodEnd) }) : t('change.then', then)}</p>
<form method="post" action="${state.path}">${hiddenFields(state, 'change_plan', { subscription: card.subscription.id, plan: change.plan, period: change.period })}
<button type="submit">${t('change.confirm', { amount: money(p.chargeMinor, p.currency) })}</button></form>
</section>`;
}

function subscriptionCard(state: PageState, card: SubscriptionCard): SafeHtml {
  const { t } = state.t;
  const s = card.subscription;
  const live = LIVE.includes(s.status);
  const scheduled = live && s.endDate !== null;
  const change = state.change?.subscriptionId === s.id ? state.change : null;
  const actions = !live
    ? null
    : scheduled
      ? html`<div class="actions">${buttonForm(state, 'resume', { subscription: s.id }, t('subscription.resume'), false)}</div>`
      : html`${changePicker(state, card, change)}${change ? changePreview(state, card, change) : null}${cancelForm(state, card)}`;
  return html`<article class="item" id="subscription-${s.id}" aria-labelledby="title-${s.id}">
<h3 id="title-${s.id}">${s.plan.name} <span class="status ${s.status}">${t('subscription.status', { status: s.status })}</span></h3>
<p class="hint">${s.product}</p>
${facts(state, card)}${unpaid(state, card)}${actions}
</article>`;
}

export function subscriptionsSection(state: PageState): SafeHtml {
  const { t } = state.t;
  const cards = state.model.subscriptions;
  const body = cards.length === 0 ? html`<p>${t('subscription.none')}</p>` : cards.map((card) => subscriptionCard(state, card));
  return html`<section class="card" id="subscriptions" aria-labelledby="subscriptions-title"><h2 id="subscriptions-title">${t('portal.subscriptions')}</h2>${body}</section>`;
}
