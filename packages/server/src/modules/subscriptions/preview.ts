/**
 * The upcoming invoice (ours): what the next renewal of a subscription will
 * charge if nothing changes before it — the renewal's own terms (renewal-terms.ts)
 * and its own plan (renewal-plan.compute.ts), computed and shown, with nothing
 * charged or recorded. With a cancellation scheduled, the last invoice: the usage of
 * the period that ends. When the renewal's plan records no invoice (a trial that ends
 * with no way to pay, an end with no usage to bill), there is none to show.
 */
import type { UpcomingInvoice } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction } from '../../db/transaction.js';
import { decimalText } from '../ledger/format.js';
import { percentText } from '../billing/rounding.compute.js';
import { findCustomer } from '../customers/queries.js';
import { noInvoiceComing, noUpcomingInvoice, subscriptionNotFound } from './errors.js';
import { planRenewal } from './renewal-plan.compute.js';
import { renewalMethod, renewalTerms, type RenewalItem } from './renewal-terms.js';
import * as repo from './repo.js';
import { peekDiscountForRenewal, quoteDiscountOf } from '../discounts/queries.js';

/**
 * The invoice that comes next: the renewal's, or, when a cancellation ends the subscription
 * first, the last one (the usage of the period it cuts short); null when none will come
 * (ended, one-time, or not started).
 */
function nextRenewal(row: repo.SubscriptionRow): RenewalItem | null {
  if (!['active', 'trialing', 'past_due'].includes(row.status)) return null;
  const at = row.status === 'trialing' ? row.trial_end : row.current_period_end;
  if (row.end_date && (!at || row.end_date.getTime() <= at.getTime())) return { kind: 'end', at: row.end_date };
  if (!at) return null;
  return { kind: row.status === 'trialing' ? 'trial_end' : 'renew', at };
}

export async function upcomingInvoice(db: Db, environmentId: string, subscriptionId: string): Promise<UpcomingInvoice> {
  return inTransaction(db, async (tx) => {
    const row = await repo.findSubscription(tx, environmentId, subscriptionId);
    if (!row) throw subscriptionNotFound();
    const item = nextRenewal(row);
    if (!item) throw noUpcomingInvoice(row.status);
    const customer = (await findCustomer(tx, environmentId, await repo.customerIdOf(tx, row.customer_id)))!;
    const carried = item.kind === 'end' ? null : await peekDiscountForRenewal(tx, row.id);
    const terms = await renewalTerms(tx, row, customer, item, undefined, carried ? quoteDiscountOf(carried) : null);
    const billed = item.kind !== 'end' || terms.purchase.quote.lines.length > 0;
    const method = billed ? await renewalMethod(tx, row, customer) : undefined;
    const plan = planRenewal({ item, row, customer, carriesDiscount: carried !== null, terms, method });
    if (!plan.invoiced) throw noInvoiceComing(plan.action, item.at);
    const { period, charged, fromCredit } = terms;
    const money = (minor: number) => decimalText(minor, charged.currency);
    return {
      subscriptionId: row.id,
      currency: charged.currency,
      periodStart: period.start.toISOString(),
      periodEnd: period.end.toISOString(),
      nextPaymentAttempt: item.at.toISOString(),
      lines: charged.lines.map((line) => ({
        description: line.description,
        quantity: line.quantity,
        featureId: line.featureId,
        amount: money(line.amountMinor),
        amountUnits: line.amountMinor,
      })),
      amountSubtotal: money(charged.subtotalMinor),
      amountDiscount: money(charged.discountMinor),
      amountTax: money(charged.taxMinor),
      amountTotal: money(charged.totalMinor),
      amountSubtotalUnits: charged.subtotalMinor,
      amountDiscountUnits: charged.discountMinor,
      amountTaxUnits: charged.taxMinor,
      amountTotalUnits: charged.totalMinor,
      creditAppliedUnits: fromCredit,
      taxRate: percentText(charged.taxRateBp),
      taxCountry: charged.taxCountry,
      taxReason: charged.taxReason ?? (charged.taxRateBp > 0 ? 'standard' : 'no_rate'),
      buyerTaxId: charged.buyerTaxId ?? null,
    };
  });
}
