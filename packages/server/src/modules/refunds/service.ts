import type { Order, Refund, RefundCreate, RefundListQuery } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Executor, type Tx } from '../../db/transaction.js';
import { isUuid } from '../../db/search.js';
import type { Clock } from '../../lib/clock.js';
import { testClockTimeOf } from '../customers/queries.js';
import { leaseHolderOf } from '../../db/lease-holder.js';
import { failpoint } from '../../lib/failpoints.js';
import { newId } from '../../lib/crypto.js';
import type { AnswerKeeper } from '../../db/answer-keeper.js';
import type { PageRequest } from '../../lib/pagination.js';
import { RefundError, splitRefund } from '../billing/refunds.compute.js';
import { recordEvent } from '../events/writer.js';
import { assertProviderConfigured, requireProvider } from '../payments/providers.js';
import { orderNotFound } from '../ledger/errors.js';
import { dateRange, decimalText, majorNumber, searchTerm } from '../ledger/format.js';
import type { OrderPresenter } from '../ledger/presenter.js';
import * as orders from '../ledger/queries.js';
import type { LedgerScope } from '../ledger/scope.js';
import { orderWebhookParts } from '../ledger/webhook.js';
import type { RefundOutcome } from '../payments/provider.js';
import { RefundAmountError, requestedAmountMinor } from './amount.compute.js';
import { invalidRefundAmount, orderNotRefundable, refundNotFound } from './errors.js';
import * as repo from './repo.js';
import { settleFailed, settleSucceeded, type SettleContext } from './settle.js';
import { refundWebhookObject } from './webhook.js';

type Answering = (tx: Tx, settled: repo.RefundRow) => Promise<void>;

const REFUNDABLE = new Set<orders.OrderRow['status']>(['COMPLETE', 'PARTIAL_REFUND']);

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function toRefund(row: repo.RefundRow, order: Order): Refund {
  return {
    id: row.id,
    reason: row.reason as Refund['reason'],
    amountUnits: row.amount_minor,
    amount: majorNumber(row.amount_minor, row.currency),
    currency: row.currency,
    internalNote: row.internal_note,
    failureReason: row.failure_reason,
    status: row.status,
    order,
    createdOn: row.created_at.toISOString(),
    modifiedOn: row.modified_at.toISOString(),
  };
}

export class RefundService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly presenter: OrderPresenter,
  ) {}

  /**
   * Refunds an order in two phases (decision 0026): a first transaction locks the order,
   * checks the amount against what is neither refunded nor being refunded, and records
   * the refund as PROCESSING; the provider is asked outside any transaction, with a key
   * derived from the refund; a second transaction records its answer (SUCCEEDED, with
   * the order's new refunded total and a REFUND transaction, or FAILED). Concurrent
   * refunds of one order can never pass its total. With an Idempotency-Key (`keeper`) the
   * refund records the key and the answer is kept with its settlement: a retry after a
   * crash completes the refund its first run made, or answers it (decision 0051).
   */
  async create(scope: LedgerScope, input: RefundCreate, keeper?: AnswerKeeper): Promise<Refund> {
    const earlier = keeper ? await repo.refundOfIdempotencyKey(this.db, keeper.scope, keeper.key) : undefined;
    if (earlier) return this.resume(scope, earlier, keeper);
    const { refund, chargeRef } = await inTransaction(this.db, (tx) => this.reserve(tx, scope, input, keeper));
    const settled = await this.complete(scope, refund, chargeRef, this.answering(scope, keeper));
    return this.present(this.db, scope, [settled]).then(([r]) => r!);
  }

  /** Keeps the answer of a settled refund, in its settlement's transaction. */
  private answering(scope: LedgerScope, keeper: AnswerKeeper | undefined): Answering | undefined {
    return keeper && (async (tx, settled) => keeper.keep(tx, (await this.present(tx, scope, [settled]))[0]));
  }

  /** The refund a request's first run made before its process died: completed if it is still processing, and answered. */
  private async resume(scope: LedgerScope, refund: repo.RefundRow, keeper?: AnswerKeeper): Promise<Refund> {
    const charge = refund.status === 'PROCESSING' ? await repo.chargeOf(this.db, refund.order_id) : undefined;
    const settled = charge?.provider_ref ? await this.complete(scope, refund, charge.provider_ref, this.answering(scope, keeper)) : refund;
    return this.present(this.db, scope, [settled]).then(([r]) => r!);
  }

  /** Phases two and three of a PROCESSING refund: the provider, under the refund's own key, then its answer recorded. */
  private async complete(scope: SettleContext['scope'], refund: repo.RefundRow, chargeRef: string, answering?: Answering): Promise<repo.RefundRow> {
    const provider = await requireProvider(this.db, scope);
    const outcome = await provider.refund({
      chargeRef,
      amountMinor: refund.amount_minor,
      currency: refund.currency,
      idempotencyKey: `refund:${refund.id}`,
    });
    failpoint('refund.after-provider');
    return inTransaction(this.db, async (tx) => {
      const settled = await this.settle(tx, scope, refund.id, outcome);
      await answering?.(tx, settled);
      return settled;
    });
  }

  private async validAmount(tx: Tx, order: orders.OrderRow, input: RefundCreate) {
    let amountMinor: number | null;
    try {
      amountMinor = requestedAmountMinor(input, order.currency);
    } catch (error) {
      if (error instanceof RefundAmountError) throw invalidRefundAmount(error.message);
      throw error;
    }
    try {
      return splitRefund({
        currency: order.currency,
        orderTotalMinor: order.total_minor,
        orderTaxMinor: order.tax_minor,
        refundedMinor: order.refunded_minor + (await repo.processingRefundsTotal(tx, order.id)),
        amountMinor,
      });
    } catch (error) {
      if (error instanceof RefundError) throw invalidRefundAmount(sentence(error.message));
      throw error;
    }
  }

  private async reserve(tx: Tx, scope: LedgerScope, input: RefundCreate, keeper?: AnswerKeeper) {
    const order = await orders.findOrder(tx, scope.environmentId, input.orderId, { forUpdate: true });
    if (!order || order.status === 'PENDING') throw orderNotFound(input.orderId);
    if (order.is_trial) throw orderNotRefundable(`Order ${order.id} is a trial order: nothing was paid, so nothing can be refunded`);
    if (order.status === 'REFUNDED') throw orderNotRefundable(`Order ${order.id} has already been refunded in full`);
    if (!REFUNDABLE.has(order.status)) {
      throw orderNotRefundable(`Order ${order.id} is ${order.status}: only COMPLETE and PARTIAL_REFUND orders can be refunded`);
    }
    const split = await this.validAmount(tx, order, input);
    const charge = await repo.chargeOf(tx, order.id);
    if (!charge?.provider_ref) throw orderNotRefundable(`Order ${order.id} has no captured payment to refund`);
    await assertProviderConfigured(tx, scope);
    const parts = await orderWebhookParts(tx, order);
    const now = await this.timeOf(tx, order.customer_id);
    const refund = await repo.insertRefund(tx, {
      id: newId(),
      environment_id: scope.environmentId,
      order_id: order.id,
      amount_minor: split.amountMinor,
      currency: order.currency,
      reason: input.reason ?? 'REQUESTED_BY_CUSTOMER',
      internal_note: input.internalNote?.trim() || null,
      status: 'PROCESSING',
      failure_reason: null,
      provider_ref: null,
      created_at: now,
      modified_at: now,
      idempotency_scope: keeper?.scope ?? null,
      idempotency_key: keeper?.key ?? null,
      holder: leaseHolderOf(this.db),
    });
    await recordEvent(tx, {
      environmentId: scope.environmentId,
      organizationId: scope.organizationId,
      type: 'refund.created',
      data: refundWebhookObject(refund, order, parts.customer, scope.organizationId),
      at: now,
    });
    return { refund, chargeRef: charge.provider_ref };
  }

  /** Now, for the order's customer: their test clock's time if they live by one. */
  private async timeOf(tx: Tx, customerPk: string): Promise<Date> {
    return (await testClockTimeOf(tx, customerPk)) ?? this.clock.now();
  }

  /** Records the provider's answer for a PROCESSING refund, once: a refund settled already is returned as it is. */
  private async settle(tx: Tx, scope: SettleContext['scope'], refundId: string, outcome: RefundOutcome): Promise<repo.RefundRow> {
    const pending = await repo.findRefund(tx, scope.environmentId, refundId);
    const order = pending && (await orders.findOrder(tx, scope.environmentId, pending.order_id, { forUpdate: true }));
    const refund = order && (await repo.lockProcessingRefund(tx, refundId));
    if (!order || !refund) return (await repo.findRefund(tx, scope.environmentId, refundId))!;
    const charge = await repo.chargeOf(tx, order.id);
    const [method] = await orders.paymentMethodsByIds(tx, [charge?.payment_method_id ?? null]);
    const context: SettleContext = {
      tx,
      scope,
      order,
      refund,
      parts: await orderWebhookParts(tx, order),
      now: await this.timeOf(tx, order.customer_id),
      primary: `-${decimalText(refund.amount_minor, order.currency)}`,
      paymentMethodId: charge?.payment_method_id ?? null,
      last4: method?.last4 ?? null,
    };
    return outcome.status === 'succeeded' ? settleSucceeded(context, outcome.providerRef) : settleFailed(context, outcome.message);
  }

  /** Refunds whose process died between asking the provider and recording its answer. */
  async recoverStale(olderThanMs: number): Promise<number> {
    const stale = await repo.staleProcessingRefunds(this.db, new Date(this.clock.now().getTime() - olderThanMs), 50);
    for (const refund of stale) {
      const [scope, charge] = await Promise.all([repo.environmentScope(this.db, refund.environment_id), repo.chargeOf(this.db, refund.order_id)]);
      if (scope && charge?.provider_ref) await this.complete(scope, refund, charge.provider_ref);
    }
    return stale.length;
  }

  private async present(db: Executor, scope: LedgerScope, rows: repo.RefundRow[]): Promise<Refund[]> {
    const byId = await this.presenter.byIds(
      db,
      scope,
      rows.map((r) => r.order_id),
    );
    return rows.map((row) => toRefund(row, byId.get(row.order_id)!));
  }

  async list(scope: LedgerScope, query: RefundListQuery, page: PageRequest): Promise<{ count: number; results: Refund[] }> {
    const filters: repo.RefundFilters = {
      customer: query.customer_id?.trim(),
      search: searchTerm(query.search),
      status: query.status,
      created: dateRange(query.start_date, query.end_date),
    };
    const count = await repo.countRefunds(this.db, scope.environmentId, filters);
    if (page.offset >= count) return { count, results: [] };
    const rows = await repo.listRefunds(this.db, scope.environmentId, filters, page.pageSize, page.offset);
    return { count, results: await this.present(this.db, scope, rows) };
  }

  async get(scope: LedgerScope, id: string): Promise<Refund> {
    const row = isUuid(id) ? await repo.findRefund(this.db, scope.environmentId, id) : undefined;
    if (!row) throw refundNotFound(id);
    const [refund] = await this.present(this.db, scope, [row]);
    return refund!;
  }
}
