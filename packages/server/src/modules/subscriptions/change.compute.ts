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
 * The change's invoice, as a quote: the new plan's part and the usage of the period cut
 * short; `totalMinor` is what the change costs, tax included, before customer credit. The
 * unused time of the old period is not a line of it: a credit note gives it back against
 * the invoice that charged it, and that credit pays this invoice (decision 0065).
 */
export type ChangeBill = Omit<Quote, 'currency' | 'chargePeriod'>;

export interface ChangeTerms {
  trialEnd: Date | null;
  periodStart: Date;
  periodEnd: Date | null;
  /** The change's invoice; null when the change bills nothing (a trial, a change to a free plan without usage). */
  bill: ChangeBill | null;
  /** What the change costs now (the bill's total), before customer credit. */
  dueMinor: number;
  /**
   * The unused time of the old period given back, tax included: its credit note's total, added
   * to the customer's credit, which then pays what the change costs.
   */
  creditMinor: number;
  /** The unused time of the old period (a negative amount, before tax), when there is one: its credit note's line. */
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
 * The proration (decision 0049): the unused part of what was paid for the old period, to
 * credit, and the new plan's lines, for the rest of the period (same charge period) or for
 * a whole new one (another charge period, or the end of a trial). Each prorated amount is
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
  const charge = part(quote.subtotalMinor);
  if (charge > 0) {
    const words = { kind: whole ? 'plan' : 'remaining', name: pricing.newName, chargePeriod: input.chargePeriod } as const;
    lines.push(line(`${pricing.newName} (${input.chargePeriod})${whole ? '' : ' for the rest of the period'}`, charge, words));
  }
  return { lines, discountMinor: Math.min(charge, part(quote.discountMinor)), unused };
}

/** The change's invoice: its lines, then tax on what they come to, as a purchase is taxed (by the new price). */
function billOf(lines: QuoteLine[], discountMinor: number, quote: Quote): ChangeBill {
  const subtotalMinor = lines.reduce((sum, l) => sum + l.amountMinor, 0);
  const split = splitTax(subtotalMinor - discountMinor, quote.taxRateBp, quote.taxBehavior);
  const tax = { taxRateBp: quote.taxRateBp, taxBehavior: quote.taxBehavior, taxCountry: quote.taxCountry, taxReason: quote.taxReason, buyerTaxId: quote.buyerTaxId };
  return { lines, subtotalMinor, discountMinor, taxMinor: split.taxMinor, totalMinor: split.grossMinor, ...tax };
}

/** The unused time given back, tax included, taxed as the change's invoice is (by the new price's rate and behaviour). */
function creditOf(unused: QuoteLine | undefined, quote: Quote): number {
  return unused ? splitTax(-unused.amountMinor, quote.taxRateBp, quote.taxBehavior).grossMinor : 0;
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
  const proration = trialing || deferred ? { lines: [], discountMinor: 0, unused: undefined } : prorationLines(row, input, pricing, now);
  const usage = pricing.usage;
  const lines = [...proration.lines, ...(usage?.lines ?? [])];
  const credit = { creditMinor: creditOf(proration.unused, pricing.quote), ...(proration.unused ? { unused: proration.unused } : {}) };
  if (lines.length === 0) return { trialEnd, periodStart, periodEnd, bill: null, dueMinor: 0, ...credit };
  const bill = billOf(lines, proration.discountMinor + (usage?.discountMinor ?? 0), pricing.quote);
  return { trialEnd, periodStart, periodEnd, bill, dueMinor: bill.totalMinor, ...credit };
}

/** What credit pays of a change: the customer's balance and the unused time the change gives back, up to what it costs. */
export function creditApplied(terms: Pick<ChangeTerms, 'dueMinor' | 'creditMinor'>, balanceMinor: number): number {
  return Math.min(terms.dueMinor, balanceMinor + terms.creditMinor);
}
