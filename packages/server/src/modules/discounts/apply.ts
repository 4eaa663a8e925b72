/**
 * What the checkout and the billing engine use of discounts, inside their own
 * transactions: a code checked against what is being bought, a redemption counted
 * exactly once, and the discount a subscription carries into its renewals.
 */
import type { DiscountDuration } from '../../db/schema.js';
import { isUuid } from '../../db/search.js';
import type { Executor, Tx } from '../../db/transaction.js';
import { newId } from '../../lib/crypto.js';
import { DomainError } from '../../lib/domain-error.js';
import { findPlan } from '../catalog/queries.js';
import { discountStatus, renewalCyclesLeft, type DiscountTerms } from './discounts.compute.js';
import {
  discountCodeExhausted,
  discountCodeExpired,
  discountCodeUnknown,
  discountNotFound,
  discountNotForPlan,
  discountNotInCurrency,
  subscriptionHasDiscount,
} from './errors.js';
import * as repo from './repo.js';

/** A discount as it is applied: its terms (for discountAmountMinor) and how long it lasts. */
export interface ResolvedDiscount extends DiscountTerms {
  id: string;
  environmentId: string;
  name: string;
  code: string;
  duration: DiscountDuration;
  durationInCycles: number | null;
}

/** What the code is presented for. Restrictions are checked against the plan (and its product) or the product named. */
export interface DiscountContext {
  planIdentifier?: string;
  /** The product's id; found from the plan when only the plan is named. */
  productId?: string;
  /** ISO 4217; a FIXED_AMOUNT discount must have an amount in it. */
  currency?: string;
  now: Date;
}

export interface Redemption {
  redemptionId: string;
  discount: ResolvedDiscount;
  /** Renewals the subscription's discount still covers (null: every one); undefined without a subscription. */
  renewalCyclesLeft?: number | null;
}

function resolved(row: repo.DiscountView): ResolvedDiscount {
  return {
    id: row.id,
    environmentId: row.environment_id,
    name: row.name,
    code: row.code,
    discountType: row.discount_type,
    percentOffBasisPoints: row.percent_off_bp,
    amountsOffMinor: Object.fromEntries(row.amounts.map((a) => [a.currency, Number(a.amount_minor)])),
    duration: row.duration,
    durationInCycles: row.duration_in_cycles,
  };
}

/** Refuses a discount that may not be redeemed at `now`: archived (as if unknown), past its expiry, or used up. */
function assertRedeemable(row: repo.DiscountView, code: string, now: Date): void {
  const status = discountStatus(row, now);
  if (status === 'ARCHIVED') throw discountCodeUnknown(code);
  if (status === 'EXPIRED') {
    if (row.expires_at && row.expires_at.getTime() <= now.getTime()) throw discountCodeExpired(row.code, row.expires_at);
    throw discountCodeExhausted(row.code, row.max_redemptions ?? row.times_redeemed);
  }
}

async function assertApplicable(db: Executor, row: repo.DiscountView, context: DiscountContext): Promise<void> {
  if (row.plan_ids.length > 0 || row.product_ids.length > 0) {
    let productId = context.productId;
    if (productId === undefined && context.planIdentifier !== undefined && row.product_ids.length > 0) {
      productId = (await findPlan(db, row.environment_id, context.planIdentifier))?.product_id;
    }
    const forPlan = context.planIdentifier !== undefined && row.plan_identifiers.includes(context.planIdentifier);
    const forProduct = productId !== undefined && row.product_ids.includes(productId);
    if (!forPlan && !forProduct) throw discountNotForPlan(row.code, context.planIdentifier ?? productId ?? 'none named');
  }
  if (row.discount_type === 'FIXED_AMOUNT' && context.currency !== undefined) {
    const currency = context.currency.toUpperCase();
    if (!row.amounts.some((a) => a.currency === currency)) throw discountNotInCurrency(row.code, currency);
  }
}

/**
 * The discount a buyer's code names, if it may be used for what is being bought;
 * else a 400 whose `code` says why: discount_code_unknown (no such code, or
 * archived), discount_code_expired, discount_code_exhausted, discount_not_applicable
 * (a plan or product restriction, or a FIXED_AMOUNT without the currency). Codes are
 * compared without regard to case. Reads only: redeemDiscount counts the use.
 */
export async function resolveDiscountCode(
  db: Executor,
  environmentId: string,
  code: string,
  context: DiscountContext,
): Promise<ResolvedDiscount> {
  const row = await repo.findDiscountByCode(db, environmentId, code.trim());
  if (!row) throw discountCodeUnknown(code);
  assertRedeemable(row, code, context.now);
  await assertApplicable(db, row, context);
  return resolved(row);
}

/**
 * Counts one redemption of the discount, exactly once however many run at once
 * (a conditional UPDATE: each waits for the one before it and sees its count), and
 * records it. With a subscription, the subscription carries the discount into its
 * renewals (see renewalCyclesLeft; `appliedToFirstPayment: false` when the first
 * payment was not discounted, as with a free trial). Throws discount_code_exhausted
 * (400) when none is left, discount_code_expired or discount_code_unknown (archived)
 * likewise, 404 for no such discount, 409 when the subscription already carries one;
 * the caller's transaction then rolls back, the count with it.
 */
export async function redeemDiscount(
  tx: Tx,
  discountId: string,
  redemption: { customerId: string; subscriptionId?: string; orderId?: string; now: Date; appliedToFirstPayment?: boolean },
): Promise<Redemption> {
  if (!isUuid(discountId)) throw discountNotFound(discountId);
  const claimed = await repo.claimRedemption(tx, discountId, redemption.now);
  const row = await repo.findDiscountAnywhere(tx, discountId);
  if (!row) throw discountNotFound(discountId);
  if (!claimed) {
    assertRedeemable(row, row.code, redemption.now);
    throw discountCodeExhausted(row.code, row.max_redemptions ?? row.times_redeemed);
  }
  const redemptionId = newId();
  await repo.insertRedemption(tx, {
    id: redemptionId,
    environment_id: row.environment_id,
    discount_id: row.id,
    customer_id: redemption.customerId,
    subscription_id: redemption.subscriptionId ?? null,
    order_id: redemption.orderId ?? null,
    redeemed_at: redemption.now,
  });
  const discount = resolved(row);
  if (redemption.subscriptionId === undefined) return { redemptionId, discount };
  const cycles = renewalCyclesLeft(row.duration, row.duration_in_cycles, redemption.appliedToFirstPayment ?? true);
  const carried = await repo.insertSubscriptionDiscount(tx, {
    subscription_id: redemption.subscriptionId,
    environment_id: row.environment_id,
    discount_id: row.id,
    redemption_id: redemptionId,
    cycles_remaining: cycles,
    created_at: redemption.now,
  });
  if (!carried) throw subscriptionHasDiscount(redemption.subscriptionId);
  return { redemptionId, discount, renewalCyclesLeft: cycles };
}

/**
 * The discount to apply to the subscription's next renewal, taking one of its
 * cycles; null when it carries none or has none left. Call it once per renewal
 * invoice, in the transaction that creates it: a rollback gives the cycle back.
 * A discount archived or expired since still applies: it was redeemed while valid.
 */
export async function discountForRenewal(tx: Tx, subscriptionId: string): Promise<ResolvedDiscount | null> {
  const taken = await repo.takeRenewalCycle(tx, subscriptionId);
  if (!taken) return null;
  const row = await repo.findDiscountAnywhere(tx, taken.discount_id);
  return row ? resolved(row) : null;
}

/**
 * The discount a subscription carries into a change of its plan or period (decision 0049),
 * without taking a cycle: the one it carries, when it has cycles left and applies to the
 * new plan (its plan and product restrictions, its currency); else null.
 */
export async function discountForChange(db: Executor, subscriptionId: string, context: DiscountContext): Promise<ResolvedDiscount | null> {
  const carried = await repo.findSubscriptionDiscount(db, subscriptionId);
  if (!carried || carried.cycles_remaining === 0) return null;
  const row = await repo.findDiscountAnywhere(db, carried.discount_id);
  if (!row) return null;
  try {
    await assertApplicable(db, row, context);
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
  return resolved(row);
}

/**
 * A change took effect: its successor carries the discount on, with the cycles it had; a
 * change that starts a new period (another charge period, the end of a trial) takes one.
 */
export async function carryDiscount(tx: Tx, fromSubscriptionId: string, toSubscriptionId: string, startsCycle: boolean): Promise<void> {
  await repo.moveSubscriptionDiscount(tx, fromSubscriptionId, toSubscriptionId);
  if (startsCycle) await repo.takeRenewalCycle(tx, toSubscriptionId);
}

/** The same without taking a cycle, for a preview of the next renewal. */
export async function peekDiscountForRenewal(db: Executor, subscriptionId: string): Promise<ResolvedDiscount | null> {
  const carried = await repo.findSubscriptionDiscount(db, subscriptionId);
  if (!carried || carried.cycles_remaining === 0) return null;
  const row = await repo.findDiscountAnywhere(db, carried.discount_id);
  return row ? resolved(row) : null;
}
