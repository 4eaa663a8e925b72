/**
 * A renewal's money decision, as a value (issue 26): from what the renewal loaded under
 * its locks, what it charges, to which card, for which period, and what a payment that
 * cannot be taken leaves. Pure: the renewal use case (use-cases/renew-subscription.ts)
 * loads, and records the plan with its payment's outcome.
 */
import type { Quote } from '../billing/types.js';
import type { PaymentFailure } from '../purchases/unpaid-invoices.js';
import type { PaymentOutcome, PaymentRequest } from '../purchases/payment.js';
import type { CustomerRow, PaymentMethodRow, ResolvedPurchase } from '../purchases/purchase.js';
import type { RenewalItem } from './renewal-terms.js';
import type { SubscriptionRow } from './repo.js';

const LIVE = ['active', 'trialing', 'past_due'];

/** Whether the subscription, as read, is still due for the item. */
export function isDue(row: SubscriptionRow, item: RenewalItem): boolean {
  if (item.kind === 'end') return LIVE.includes(row.status) && row.end_date?.getTime() === item.at.getTime();
  const dueAt = item.kind === 'renew' ? row.current_period_end : row.trial_end;
  const trialing = row.status === 'trialing';
  return LIVE.includes(row.status) && dueAt?.getTime() === item.at.getTime() && trialing === (item.kind === 'trial_end');
}

/** What a renewal loaded: the subscription and its customer, locked, and what the next period costs. */
export interface RenewalState {
  item: RenewalItem;
  row: SubscriptionRow;
  customer: CustomerRow;
  /** The carried discount's cycle the renewal takes (null: none carried, or none left). */
  carriesDiscount: boolean;
  terms: { anchor: Date; period: { start: Date; end: Date }; purchase: ResolvedPurchase; charged: Quote; fromCredit: number };
  /** The card a payment would be taken from (undefined: none usable; not read when nothing is billed). */
  method: PaymentMethodRow | undefined;
}

export interface RenewalPlan {
  /** `renew`: a period begins; `end_trial`: a trial ends with no way to pay; `end`: a cancellation takes effect. */
  action: 'renew' | 'end_trial' | 'end';
  /** Whether an invoice is recorded (an end bills only the usage of the period it cuts short, if any). */
  invoiced: boolean;
  payment: PaymentRequest | null;
  /** The period whose pay-as-you-go usage the invoice bills. */
  usage: { start: Date; end: Date } | null;
  takesDiscountCycle: boolean;
}

/** What the provider is told a renewal's payment is for. */
export function paymentDescription(purchase: { version: { name: string } }, row: Pick<SubscriptionRow, 'charge_period'>): string {
  return `${purchase.version.name} (${row.charge_period})`;
}

function paymentOf(state: RenewalState): PaymentRequest | null {
  const { charged, purchase } = state.terms;
  if (charged.totalMinor === 0 || !state.method) return null;
  return { method: state.method, amountMinor: charged.totalMinor, currency: charged.currency, description: paymentDescription(purchase, state.row), planVersionId: purchase.version.id };
}

export function planRenewal(state: RenewalState): RenewalPlan {
  const { item, row, terms } = state;
  if (item.kind === 'end') {
    const invoiced = terms.purchase.quote.lines.length > 0;
    return { action: 'end', invoiced, payment: invoiced ? paymentOf(state) : null, usage: terms.period, takesDiscountCycle: false };
  }
  const owes = terms.charged.totalMinor > 0;
  // A trial without a way to pay ends with the trial (decision 0029): nothing was owed yet.
  if (item.kind === 'trial_end' && owes && !state.method) return { action: 'end_trial', invoiced: false, payment: null, usage: null, takesDiscountCycle: false };
  const usage = row.current_period_start ? { start: row.current_period_start, end: terms.period.start } : null;
  return { action: 'renew', invoiced: true, payment: paymentOf(state), usage, takesDiscountCycle: state.carriesDiscount };
}

/** How the plan's invoice was paid: its charge (null: nothing to charge), or why it was not. */
export type Settled = { paid: true; chargeRef: string | null } | { paid: false; failure: PaymentFailure };

export function settledPayment(state: RenewalState, outcome: PaymentOutcome): Settled {
  if (outcome.kind === 'paid') return { paid: true, chargeRef: outcome.chargeRef };
  if (outcome.kind === 'refused') return { paid: false, failure: { code: outcome.code, message: outcome.message } };
  if (state.terms.charged.totalMinor === 0) return { paid: true, chargeRef: null };
  return { paid: false, failure: { code: 'payment_method_required', message: 'The customer has no payment method that can be charged' } };
}
