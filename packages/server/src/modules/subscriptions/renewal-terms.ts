/**
 * What the period a renewal begins costs and spans, and what it is charged to: the part of
 * a renewal (use-cases/renew-subscription.ts) that its preview (the upcoming invoice) shares.
 */
import type { Executor, Tx } from '../../db/transaction.js';
import { periodEndAfter } from '../billing/renewal.compute.js';
import type { Quote } from '../billing/types.js';
import { chargeableMethodById, chargeableMethodFor } from '../payments/methods.service.js';
import { resolveRenewal, type CustomerRow, type PaymentMethodRow, type PurchaseDiscount } from '../purchases/purchase.js';
import { usageOfPeriod } from '../usage/queries.js';
import type * as repo from './repo.js';
import { findPricingSuccessor, type RenewalReads } from './repo/renewal-reads.js';

export interface RenewalItem {
  /**
   * `renew` and `trial_end`: a period begins; `end`: a cancellation takes effect, and the
   * pay-as-you-go usage of the period it cuts short is billed (decision 0048).
   */
  kind: 'renew' | 'trial_end' | 'end';
  /** When the period that ends begins the next one (the period end, or the trial end), or when the subscription ends. */
  at: Date;
}

/**
 * What a renewal or a dunning attempt charges: the customer's default method (a
 * subscription created through the API took the default of its day, and a new
 * default is how a customer replaces a card), else the subscription's own.
 */
export async function renewalMethod(
  tx: Tx,
  row: repo.SubscriptionRow,
  customer: Pick<CustomerRow, 'id'>,
  /** The customer's usable saved method, when the caller has read it (a renewal's locked reads). */
  usable?: PaymentMethodRow,
): Promise<PaymentMethodRow | undefined> {
  return usable ?? (await chargeableMethodFor(tx, row.environment_id, customer.id)) ?? chargeableMethodById(tx, row.environment_id, row.payment_method_id);
}

/**
 * What the period that begins at `item.at` costs and spans: the pure part of a
 * renewal, shared with its preview (the upcoming invoice). For an `end`, the period
 * that ends there, and only its pay-as-you-go usage (a trial's usage is never billed).
 */
export async function renewalTerms(
  tx: Executor,
  row: repo.SubscriptionRow,
  customer: CustomerRow,
  item: RenewalItem,
  /** The usage of the current period, the catalog rows and the pricing successor, when the caller has read them with the row. */
  reads?: Pick<RenewalReads, 'usage' | 'catalog' | 'successor'>,
  /** A discount the subscription carries to this renewal (discounts module). */
  discount?: PurchaseDiscount | null,
) {
  const ending = item.kind === 'end';
  const anchor = item.kind === 'trial_end' ? item.at : (row.billing_anchor ?? row.current_period_start ?? item.at);
  const period = ending ? { start: row.current_period_start ?? item.at, end: item.at } : { start: item.at, end: periodEndAfter(anchor, row.charge_period, item.at) };
  const billsUsage = item.kind === 'renew' || (ending && row.status !== 'trialing');
  const arrears = billsUsage && row.current_period_start ? (reads?.usage ?? (await usageOfPeriod(tx, row.id, row.current_period_start))) : {};
  const terms = { ...row, quantities: row.quantities as Record<string, number> };
  const catalog = reads ? (reads.catalog ?? null) : undefined;
  // A period that begins may be sold at a newer version's price (decision 0113); an end bills only the old period.
  const successor = ending ? undefined : reads ? reads.successor : await findPricingSuccessor(tx, row.environment_id, row.id);
  const pricing = { arrears, read: catalog, discount: ending ? null : discount, arrearsOnly: ending, ...(successor ? { successor } : {}) };
  const purchase = await resolveRenewal(tx, customer, terms, pricing);
  return { anchor, period, purchase, ...afterCredit(purchase.quote, customer.credit_minor) };
}

/** Customer credit (from downgrades) pays first; the rest is charged. */
function afterCredit(quote: Quote, creditMinor: number): { charged: Quote; fromCredit: number } {
  const fromCredit = Math.min(creditMinor, quote.totalMinor);
  return { charged: { ...quote, discountMinor: quote.discountMinor + fromCredit, totalMinor: quote.totalMinor - fromCredit }, fromCredit };
}
