import type { SubscriptionUpdate } from '@billow/contract';
import { addPeriod, isRecurring } from '../billing/billing-periods.compute.js';
import { prorate } from '../billing/proration.compute.js';
import { splitTax } from '../billing/tax.compute.js';
import type { Quote, QuoteLine } from '../billing/types.js';
import type { SubscriptionRow } from './repo.js';
import {
  changeNotRecurring,
  invalidTrialEnd,
  notUpdatable,
  oneTimePurchaseNotUpdatable,
  unsupportedPaymentBehavior,
} from './errors.js';

const LIVE = ['active', 'trialing', 'past_due'];

/** Why the subscription can't take this change, as a 400; nothing when it can. */
export function assertChangeable(row: SubscriptionRow, input: SubscriptionUpdate): void {
  if (!LIVE.includes(row.status)) {
    throw notUpdatable(row.status);
  }
  if (row.charge_period === 'ONE_TIME') {
    throw oneTimePurchaseNotUpdatable();
  }
  if (!isRecurring(input.chargePeriod)) {
    throw changeNotRecurring(input.chargePeriod);
  }
  if (input.paymentBehavior && input.paymentBehavior !== 'activate_on_payment') {
    throw unsupportedPaymentBehavior();
  }
}

/** The trial end a change asks for: kept, ended ("now"), or moved to a date in the future. */
function trialEndOf(row: SubscriptionRow, input: SubscriptionUpdate, now: Date): Date | null {
  if (input.trialEnd === 'now') return null;
  if (!input.trialEnd) return row.status === 'trialing' ? row.trial_end : null;
  const at = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(input.trialEnd) ? input.trialEnd : `${input.trialEnd}Z`);
  if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime()) {
    throw invalidTrialEnd();
  }
  return at;
}

/**
 * The change's invoice, as a quote: the unused time of the old period credited (a negative
 * line), the new plan's part, the usage of the period cut short; `totalMinor` is what the
 * change costs, tax included, before customer credit (0 when the credit is larger).
 */
export type ChangeBill = Omit<Quote, 'currency' | 'chargePeriod'>;

export interface ChangeTerms {
  trialEnd: Date | null;
  periodStart: Date;
  periodEnd: Date | null;
  /** The change's invoice; null when the change bills nothing (a trial, a downgrade whose credit covers it all without usage). */
  bill: ChangeBill | null;
  /** What the change costs now (the bill's total), before customer credit. */
  dueMinor: number;
  /** What the change gives back as customer credit, tax included (the credit is larger than what it costs). */
  creditMinor: number;
  /** The line crediting the unused time of the old period (negative), when there is one: its credit note's (decision 0065). */
  unused?: QuoteLine;
}

/** What a change is priced from: the new plan's quote for a whole period, and the usage of the old period. */
export interface ChangePricing {
  /** The new plan's quote for one of its periods, with the discount the subscription carries over. */
  quote: Quote;
  /** The pay-as-you-go usage of the period the change cuts short, priced by the old plan; null: none. */
  usage: Quote | null;
  oldName: string;
  newName: string;
}

const line = (description: string, amountMinor: number, words: Pick<QuoteLine, 'kind' | 'name' | 'chargePeriod'>): QuoteLine => ({
  description,
  featureId: null,
  quantity: 1,
  amountMinor,
  ...words,
});

/**
 * An amount the customer paid (tax included) in the terms the new price is quoted in: as
 * it is for an INCLUSIVE price, net of the tax for an EXCLUSIVE one. Exact: for an amount
 * that was net + round(net × rate), this gives back net.
 */
function pricedOf(paidMinor: number, quote: Quote): number {
  return quote.taxBehavior === 'INCLUSIVE' ? paidMinor : splitTax(paidMinor, quote.taxRateBp, 'INCLUSIVE').netMinor;
}

/**
 * The proration lines (decision 0049): the unused part of what was paid for the old period,
 * credited, and the new plan, for the rest of the period (same charge period) or for a
 * whole new one (another charge period, or the end of a trial). Each prorated amount is
 * rounded once; the discount of the new plan is prorated with it.
 */
function prorationLines(row: SubscriptionRow, input: SubscriptionUpdate, pricing: ChangePricing, now: Date) {
  const { quote } = pricing;
  const samePeriod = input.chargePeriod === row.charge_period;
  const paidPeriod = row.status !== 'trialing' && row.current_period_start && row.current_period_end;
  const window = paidPeriod ? { periodStart: row.current_period_start!, periodEnd: row.current_period_end!, at: now } : null;
  const credit = window ? prorate({ ...window, oldAmountMinor: pricedOf(row.amount_minor, quote), newAmountMinor: 0 }).creditMinor : 0;
  const whole = !window || !samePeriod;
  const part = (amount: number) => (whole ? amount : prorate({ ...window!, oldAmountMinor: 0, newAmountMinor: amount }).chargeMinor);
  const lines: QuoteLine[] = [];
  const unused =
    credit > 0 ? line(`Unused time on ${pricing.oldName} (${row.charge_period})`, -credit, { kind: 'unused', name: pricing.oldName, chargePeriod: row.charge_period }) : undefined;
  if (unused) lines.push(unused);
  const charge = part(quote.subtotalMinor);
  if (charge > 0) {
    const words = { kind: whole ? 'plan' : 'remaining', name: pricing.newName, chargePeriod: input.chargePeriod } as const;
    lines.push(line(`${pricing.newName} (${input.chargePeriod})${whole ? '' : ' for the rest of the period'}`, charge, words));
  }
  return { lines, discountMinor: Math.min(charge, part(quote.discountMinor)), unused };
}

/** The change's invoice: its lines, then tax on what they come to, as a purchase is taxed (by the new price). */
function billOf(lines: QuoteLine[], discountMinor: number, quote: Quote): Omit<ChangeTerms, 'trialEnd' | 'periodStart' | 'periodEnd'> {
  const subtotalMinor = lines.reduce((sum, l) => sum + l.amountMinor, 0);
  const taxable = subtotalMinor - discountMinor;
  const split = splitTax(Math.abs(taxable), quote.taxRateBp, quote.taxBehavior);
  const owed = taxable > 0;
  const tax = { taxRateBp: quote.taxRateBp, taxBehavior: quote.taxBehavior, taxCountry: quote.taxCountry, taxReason: quote.taxReason, buyerTaxId: quote.buyerTaxId };
  const bill = { lines, subtotalMinor, discountMinor, taxMinor: owed ? split.taxMinor : 0, totalMinor: owed ? split.grossMinor : 0, ...tax };
  return { bill, dueMinor: bill.totalMinor, creditMinor: owed ? 0 : split.grossMinor };
}

/**
 * The periods and the money of a change of plan or period at `now` (decisions 0016,
 * 0048, 0049): a trial runs on without charge; otherwise the unused time of the old
 * period is credited and the new plan charged for the rest of the period (the same
 * charge period) or for a whole new one (another charge period, or the end of a
 * trial), unless NEXT_BILLING_CYCLE defers the difference within the period. The usage
 * of the old period is billed on the same invoice, and tax is computed on the whole.
 */
export function changeTerms(row: SubscriptionRow, input: SubscriptionUpdate, pricing: ChangePricing, now: Date): ChangeTerms {
  const trialEnd = trialEndOf(row, input, now);
  const trialing = trialEnd !== null;
  const samePeriod = input.chargePeriod === row.charge_period;
  const periodStart = trialing || !samePeriod ? now : (row.current_period_start ?? now);
  const periodEnd = trialing
    ? trialEnd
    : samePeriod
      ? (row.current_period_end ?? addPeriod(now, input.chargePeriod))
      : addPeriod(now, input.chargePeriod);
  const deferred = samePeriod && row.status !== 'trialing' && (input.probationBehaviour ?? 'IMMEDIATE_CHARGE') === 'NEXT_BILLING_CYCLE';
  const proration = trialing || deferred ? { lines: [], discountMinor: 0 } : prorationLines(row, input, pricing, now);
  const usage = pricing.usage;
  const lines = [...proration.lines, ...(usage?.lines ?? [])];
  if (lines.length === 0) return { trialEnd, periodStart, periodEnd, bill: null, dueMinor: 0, creditMinor: 0 };
  const unused = 'unused' in proration && proration.unused ? { unused: proration.unused } : {};
  return { trialEnd, periodStart, periodEnd, ...billOf(lines, proration.discountMinor + (usage?.discountMinor ?? 0), pricing.quote), ...unused };
}
