/**
 * What a change of plan or period is priced from (decisions 0048, 0049): the new plan's
 * quote, with the discount the subscription carries over, and the pay-as-you-go usage
 * of the period the change cuts short, priced by the old plan. Shared by the change paid
 * at once, the change paid on the hosted page, and the portal's preview of a change.
 */
import type { SubscriptionUpdate } from '@billow/contract';
import type { Tx } from '../../db/transaction.js';
import { resolvePurchase, resolveRenewal, type CustomerRow, type PurchaseScope, type ResolvedPurchase } from '../purchases/purchase.js';
import { discountForChange, quoteDiscountOf, type ResolvedDiscount } from '../discounts/queries.js';
import { usageOfPeriod } from '../usage/queries.js';
import type { ChangePricing } from './change.compute.js';
import type { SubscriptionRow } from './repo.js';

export interface PricedChange {
  purchase: ResolvedPurchase;
  pricing: ChangePricing;
  /** The discount the successor carries on, when the subscription carries one that applies to the new plan. */
  discount: ResolvedDiscount | null;
}

/** The usage of the old subscription's current period, priced by its own plan; null when there is none (or it is a trial's). */
async function usageOf(tx: Tx, customer: CustomerRow, row: SubscriptionRow) {
  const used = row.status !== 'trialing' && row.current_period_start ? await usageOfPeriod(tx, row.id, row.current_period_start) : {};
  const terms = { ...row, quantities: row.quantities as Record<string, number> };
  const old = await resolveRenewal(tx, customer, terms, { arrears: used, discount: null, arrearsOnly: true });
  return { name: old.version.name, usage: old.quote.lines.length > 0 ? old.quote : null };
}

export async function priceChange(tx: Tx, scope: PurchaseScope, customer: CustomerRow, row: SubscriptionRow, input: SubscriptionUpdate, now: Date): Promise<PricedChange> {
  const discount = await discountForChange(tx, row.id, { planIdentifier: input.planIdentifier, currency: row.currency, now });
  const purchase = await resolvePurchase(tx, scope, customer, { ...input, currencyCode: row.currency, discount: discount ? quoteDiscountOf(discount) : null });
  const old = await usageOf(tx, customer, row);
  return { purchase, discount, pricing: { quote: purchase.quote, usage: old.usage, oldName: old.name, newName: purchase.version.name } };
}
