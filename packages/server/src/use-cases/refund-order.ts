/**
 * Refunding an order, on the pipeline every movement of money takes (money-movement.ts):
 * load the order under its lock → plan the refund (pure: modules/refunds/plan.compute.ts)
 * → record it as PROCESSING, its intent → ask the provider under the refund's own key,
 * outside any transaction → settle: SUCCEEDED with the order's new refunded total, a
 * REFUND transaction and a credit note, or FAILED. Concurrent refunds of one order can
 * never pass its total: the plan counts the refunds still processing. With an
 * Idempotency-Key the answer is kept with the settlement, and a retry after a crash
 * carries on the refund its first run recorded (decision 0051).
 */
import type { Refund, RefundCreate } from '@billow/contract';
import type { AnswerKeeper } from '../db/answer-keeper.js';
import type { Db } from '../db/connect.js';
import { leaseHolderOf } from '../db/lease-holder.js';
import { inTransaction, type Tx } from '../db/transaction.js';
import type { Clock } from '../lib/clock.js';
import { failpoint } from '../lib/failpoints.js';
import { testClockTimeOf } from '../modules/customers/queries.js';
import type { LedgerScope } from '../modules/ledger/scope.js';
import { orderNotFound } from '../modules/ledger/errors.js';
import type { RefundOutcome } from '../modules/payments/provider.js';
import { assertProviderConfigured, requireProvider } from '../modules/payments/providers.js';
import { planRefund, type RefundRefusal } from '../modules/refunds/plan.compute.js';
import { invalidRefundAmount, orderNotRefundable } from '../modules/refunds/errors.js';
import * as refunds from '../modules/refunds/queries.js';
import type { RefundService } from '../modules/refunds/service.js';
import { carryOn, moveMoney, type MoneyMovement } from './money-movement.js';

type SettleScope = Parameters<typeof refunds.settleRefundOutcome>[1];

function refusalError(refusal: RefundRefusal) {
  if (refusal.kind === 'orderNotFound') return orderNotFound(refusal.orderId);
  return refusal.kind === 'notRefundable' ? orderNotRefundable(refusal.detail) : invalidRefundAmount(refusal.detail);
}

export class RefundOrder {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly refunds: RefundService,
  ) {}

  /** Refunds an order in full or in part; answers the refund as the provider left it. */
  async create(scope: LedgerScope, input: RefundCreate, keeper?: AnswerKeeper): Promise<Refund> {
    const settled = await moveMoney<refunds.RefundRow, RefundOutcome, refunds.RefundRow>({
      earlier: async () => (keeper ? refunds.refundOfIdempotencyKey(this.db, keeper.scope, keeper.key) : undefined),
      pending: (refund) => refund.status === 'PROCESSING',
      answerOf: (refund) => refund,
      reserve: async () => ({ intent: await inTransaction(this.db, (tx) => this.reserve(tx, scope, input, keeper)) }),
      ...this.completion(scope, keeper && (async (tx, refund) => keeper.keep(tx, await this.refunds.present(tx, scope, refund)))),
    });
    return this.refunds.present(this.db, scope, settled);
  }

  /** Phase (a): the order locked, the refund planned, and recorded as PROCESSING. */
  private async reserve(tx: Tx, scope: LedgerScope, input: RefundCreate, keeper?: AnswerKeeper): Promise<refunds.RefundRow> {
    const state = await refunds.loadRefundState(tx, scope.environmentId, input.orderId);
    const planned = planRefund(state, input);
    if ('refusal' in planned) throw refusalError(planned.refusal);
    await assertProviderConfigured(tx, scope);
    const now = (await testClockTimeOf(tx, state.order!.customer_id)) ?? this.clock.now();
    return refunds.recordRefundIntent(tx, planned.plan, {
      scope,
      idempotency: keeper ? { scope: keeper.scope, key: keeper.key } : null,
      holder: leaseHolderOf(this.db),
      now,
    });
  }

  /** Phases (b) and (c) of a refund; `keep` keeps the request's answer with the settlement. */
  private completion(scope: SettleScope, keep?: (tx: Tx, refund: refunds.RefundRow) => Promise<void>): Pick<MoneyMovement<refunds.RefundRow, RefundOutcome, refunds.RefundRow>, 'execute' | 'settle'> {
    const { db, clock } = this;
    return {
      execute: async (refund) => {
        const charge = await refunds.chargeOf(db, refund.order_id);
        if (!charge?.provider_ref) throw new Error(`refund ${refund.id} was recorded without a captured charge`);
        const provider = await requireProvider(db, scope);
        const outcome = await provider.refund({ chargeRef: charge.provider_ref, amountMinor: refund.amount_minor, currency: refund.currency, idempotencyKey: `refund:${refund.id}` });
        failpoint('refund.after-provider');
        return outcome;
      },
      settle: (refund, outcome) =>
        inTransaction(db, async (tx) => {
          const settled = await refunds.settleRefundOutcome(tx, scope, refund.id, outcome, clock);
          await keep?.(tx, settled);
          return settled;
        }),
    };
  }

  /** Refunds whose process died between recording them and settling them: carried on from the provider. */
  async recoverStale(olderThanMs: number): Promise<number> {
    const stale = await refunds.staleProcessingRefunds(this.db, new Date(this.clock.now().getTime() - olderThanMs), 50);
    for (const refund of stale) {
      const scope = await refunds.environmentScope(this.db, refund.environment_id);
      if (scope) await carryOn(this.completion(scope), refund);
    }
    return stale.length;
  }
}
