/**
 * What a customer does to their own subscription beyond the API's cancel and update
 * (decision 0037): see what a change of plan or period costs before confirming it,
 * and take back a cancellation scheduled for the end of the period.
 */
import type { SubscriptionUpdate } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Tx } from '../../db/transaction.js';
import { lockCustomer, type PurchaseScope } from '../purchases/purchase.js';
import type { Clock } from '../../lib/clock.js';
import type { QuoteLine } from '../billing/types.js';
import { findCustomerByPk, testClockTimeOf } from '../customers/queries.js';
import { recordEvent } from '../events/writer.js';
import { assertChangeable, changeTerms, creditApplied } from './change.compute.js';
import { priceChange } from './change-pricing.js';
import { notResumable, subscriptionNotFound } from './errors.js';
import * as repo from './repo.js';
import { subscriptionEventObject } from './view.js';

/** What confirming a change would do now: charged today (after credit), credited, and the new recurring price. */
export interface ChangePreview {
  currency: string;
  /** The change's invoice lines: the new plan, the usage of the period cut short (with their kind and name, for the portal's words). */
  lines: Pick<QuoteLine, 'description' | 'amountMinor' | 'kind' | 'name' | 'chargePeriod' | 'quantity'>[];
  discountMinor: number;
  taxMinor: number;
  taxRateBp: number;
  /** Why the rate (billing/tax.compute.ts): a reverse charge is shown as such. */
  taxReason: string | null;
  dueMinor: number;
  /** What credit pays of it: the customer's balance and the unused time given back. */
  fromCreditMinor: number;
  chargeMinor: number;
  /** The unused time of the old plan given back, tax included (its credit note's total). */
  creditMinor: number;
  /** The customer's credit once the change is paid, for their next invoices. */
  creditAfterMinor: number;
  newAmountMinor: number;
  periodEnd: Date | null;
  trialEnd: Date | null;
}

/** The change's terms as `SubscriptionService.update` will compute them, with nothing charged or written. */
export async function previewChange(db: Db, clock: Clock, scope: PurchaseScope, id: string, input: SubscriptionUpdate): Promise<ChangePreview> {
  return inTransaction(db, async (tx) => {
    const row = await repo.findSubscription(tx, scope.environmentId, id);
    if (!row) throw subscriptionNotFound();
    const customer = await findCustomerByPk(tx, scope.environmentId, row.customer_id);
    if (!customer) throw subscriptionNotFound();
    assertChangeable(row, input);
    const now = (await testClockTimeOf(tx, customer.id)) ?? clock.now();
    const { purchase, pricing } = await priceChange(tx, scope, customer, row, input, now);
    const terms = changeTerms(row, input, pricing, now);
    const fromCredit = creditApplied(terms, customer.credit_minor);
    return {
      currency: row.currency,
      lines: (terms.bill?.lines ?? []).map((l) => ({ description: l.description, amountMinor: l.amountMinor, kind: l.kind, name: l.name, chargePeriod: l.chargePeriod, quantity: l.quantity })),
      discountMinor: terms.bill?.discountMinor ?? 0,
      taxMinor: terms.bill?.taxMinor ?? 0,
      taxRateBp: terms.bill?.taxRateBp ?? 0,
      taxReason: terms.bill?.taxReason ?? purchase.quote.taxReason ?? null,
      dueMinor: terms.dueMinor,
      fromCreditMinor: fromCredit,
      chargeMinor: terms.dueMinor - fromCredit,
      creditMinor: terms.creditMinor,
      creditAfterMinor: customer.credit_minor + terms.creditMinor - fromCredit,
      newAmountMinor: purchase.quote.totalMinor,
      periodEnd: terms.periodEnd,
      trialEnd: terms.trialEnd,
    };
  });
}

async function lockScheduled(tx: Tx, scope: PurchaseScope, id: string) {
  const found = await repo.findSubscription(tx, scope.environmentId, id);
  if (!found) throw subscriptionNotFound();
  const customer = await lockCustomer(tx, scope.environmentId, await repo.customerIdOf(tx, found.customer_id));
  const row = (await repo.findSubscription(tx, scope.environmentId, id, { forUpdate: true }))!;
  const now = (await testClockTimeOf(tx, customer.id)) ?? null;
  return { row, now };
}

/**
 * Takes back a cancellation that waits for its date (CURRENT_PERIOD_ENDS or SPECIFIC_DATE):
 * the subscription renews again. `subscription.updated`, previous end_date the date it had.
 * A subscription with nothing scheduled (or already ended) is refused with 400.
 */
export async function resumeSubscription(db: Db, clock: Clock, scope: PurchaseScope, id: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { row, now: clockTime } = await lockScheduled(tx, scope, id);
    const now = clockTime ?? clock.now();
    const live = ['active', 'trialing', 'past_due'].includes(row.status);
    if (!live || !row.end_date || row.end_date.getTime() <= now.getTime()) throw notResumable();
    const updated = await repo.updateSubscription(tx, row.id, {
      end_date: null,
      canceled_at: null,
      cancellation_reason: null,
      cancellation_feedback: null,
      cancellation_comment: null,
      modified_at: now,
    });
    await recordEvent(tx, {
      environmentId: scope.environmentId,
      organizationId: scope.organizationId,
      type: 'subscription.updated',
      data: await subscriptionEventObject(tx, updated, scope.organizationId),
      previousAttributes: { end_date: row.end_date.toISOString().slice(0, 10) },
      at: now,
    });
  });
}
