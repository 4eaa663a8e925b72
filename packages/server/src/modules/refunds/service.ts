import type { Order, Refund, RefundCreate, RefundListQuery } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Tx } from '../../db/transaction.js';
import { isUuid } from '../../db/search.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import type { PageRequest } from '../../http/pagination.js';
import { RefundError, splitRefund } from '../billing/refunds.compute.js';
import { recordEvent } from '../events/writer.js';
import { requireProvider } from '../payments/providers.js';
import { orderNotFound } from '../ledger/errors.js';
import { dateRange, decimalText, majorNumber, searchTerm } from '../ledger/format.js';
import type { OrderPresenter } from '../ledger/presenter.js';
import * as orders from '../ledger/repo.js';
import type { LedgerScope } from '../ledger/scope.js';
import { customerWebhookObject, orderWebhookObject, orderWebhookParts } from '../ledger/webhook.js';
import { RefundAmountError, requestedAmountMinor } from './amount.compute.js';
import { invalidRefundAmount, orderNotRefundable, refundNotFound } from './errors.js';
import * as repo from './repo.js';

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

/** What the `refund.*` events carry. */
function refundWebhookObject(refund: repo.RefundRow, order: orders.OrderRow, customer: orders.CustomerRow, organizationId: string) {
  return {
    id: refund.id,
    object: 'refund',
    status: refund.status,
    amount: decimalText(refund.amount_minor, refund.currency),
    amount_units: refund.amount_minor,
    currency: refund.currency,
    reason: refund.reason,
    order_id: refund.order_id,
    customer: customerWebhookObject(customer),
    subscription_id: order.subscription_id,
    organization: organizationId,
    created_on: refund.created_at.toISOString(),
    modified_on: refund.modified_at.toISOString(),
  };
}

export class RefundService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly presenter: OrderPresenter,
  ) {}

  /**
   * Refunds an order, in one transaction with the order row locked: concurrent
   * refunds of one order run one after the other, each against what the
   * previous left, so the refunded total can never pass the order's total.
   * The provider's answer decides the refund's status (SUCCEEDED or FAILED);
   * only a successful refund changes the order and writes a REFUND transaction.
   */
  async create(scope: LedgerScope, input: RefundCreate): Promise<Refund> {
    const refund = await inTransaction(this.db, (tx) => this.refund(tx, scope, input));
    return this.present(scope, [refund]).then(([r]) => r!);
  }

  private async refund(tx: Tx, scope: LedgerScope, input: RefundCreate): Promise<repo.RefundRow> {
    const order = await orders.findOrder(tx, scope.environmentId, input.orderId, { forUpdate: true });
    if (!order || order.status === 'PENDING') throw orderNotFound(input.orderId);
    if (order.is_trial) throw orderNotRefundable(`Order ${order.id} is a trial order: nothing was paid, so nothing can be refunded`);
    if (order.status === 'REFUNDED') throw orderNotRefundable(`Order ${order.id} has already been refunded in full`);
    if (!REFUNDABLE.has(order.status)) {
      throw orderNotRefundable(`Order ${order.id} is ${order.status}: only COMPLETE and PARTIAL_REFUND orders can be refunded`);
    }

    let amountMinor: number | null;
    try {
      amountMinor = requestedAmountMinor(input, order.currency);
    } catch (error) {
      if (error instanceof RefundAmountError) throw invalidRefundAmount(error.message);
      throw error;
    }
    let split;
    try {
      split = splitRefund({
        currency: order.currency,
        orderTotalMinor: order.total_minor,
        orderTaxMinor: order.tax_minor,
        refundedMinor: order.refunded_minor,
        amountMinor,
      });
    } catch (error) {
      if (error instanceof RefundError) throw invalidRefundAmount(sentence(error.message));
      throw error;
    }

    const charge = await repo.chargeOf(tx, order.id);
    if (!charge?.provider_ref) {
      throw orderNotRefundable(`Order ${order.id} has no captured payment to refund`);
    }
    const provider = requireProvider(scope.environment);
    const parts = await orderWebhookParts(tx, order);
    const events = { environmentId: scope.environmentId, organizationId: scope.organizationId };
    const now = this.clock.now();
    const refundId = newId();

    const pending = await repo.insertRefund(tx, {
      id: refundId,
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
    });
    await recordEvent(tx, {
      ...events,
      type: 'refund.created',
      data: refundWebhookObject(pending, order, parts.customer, scope.organizationId),
      at: now,
    });

    const outcome = await provider.refund({
      chargeRef: charge.provider_ref,
      amountMinor: split.amountMinor,
      currency: order.currency,
      idempotencyKey: `refund:${refundId}`,
    });
    const [method] = await orders.paymentMethodsByIds(tx, [charge.payment_method_id]);
    const timelineBase = {
      environmentId: scope.environmentId,
      orderId: order.id,
      subscriptionId: order.subscription_id,
      at: now,
    };
    const primary = `-${decimalText(split.amountMinor, order.currency)}`;

    if (outcome.status !== 'succeeded') {
      const failed = await repo.settleRefund(tx, refundId, {
        status: 'FAILED',
        failure_reason: outcome.message,
        provider_ref: null,
        modified_at: now,
      });
      await orders.insertOrderEvent(tx, {
        ...timelineBase,
        code: 'refund.failed',
        title: 'Refund failed',
        status: 'failed',
        metadata: { primary, secondary: outcome.message, refundId },
      });
      await recordEvent(tx, {
        ...events,
        type: 'refund.updated',
        data: refundWebhookObject(failed, order, parts.customer, scope.organizationId),
        previousAttributes: { status: 'PROCESSING' },
        at: now,
      });
      return failed;
    }

    const succeeded = await repo.settleRefund(tx, refundId, {
      status: 'SUCCEEDED',
      failure_reason: null,
      provider_ref: outcome.providerRef,
      modified_at: now,
    });
    const updated = await orders.setRefunded(tx, order.id, {
      refundedMinor: split.refundedAfterMinor,
      status: split.orderStatus,
      at: now,
    });
    await repo.insertRefundTransaction(tx, {
      id: newId(),
      environmentId: scope.environmentId,
      orderId: order.id,
      refundId,
      currency: order.currency,
      amountMinor: -split.amountMinor,
      taxMinor: -split.taxMinor,
      netMinor: -split.netMinor,
      paymentMethodId: charge.payment_method_id,
      providerRef: outcome.providerRef,
      // A refund leaves the balance at once.
      availableOn: now.toISOString().slice(0, 10),
      at: now,
    });
    await orders.insertOrderEvent(tx, {
      ...timelineBase,
      code: 'refund.succeeded',
      title: split.orderStatus === 'REFUNDED' ? 'Order refunded in full' : 'Order partially refunded',
      status: 'success',
      metadata: {
        primary,
        secondary: method?.last4 ? `card ending ${method.last4}` : 'original payment method',
        refundId,
        reason: succeeded.reason,
      },
    });
    await recordEvent(tx, {
      ...events,
      type: 'order.refunded',
      data: orderWebhookObject(updated, parts, scope.organizationId),
      previousAttributes: { status: order.status },
      at: now,
    });
    await recordEvent(tx, {
      ...events,
      type: 'refund.updated',
      data: refundWebhookObject(succeeded, updated, parts.customer, scope.organizationId),
      previousAttributes: { status: 'PROCESSING' },
      at: now,
    });
    return succeeded;
  }

  private async present(scope: LedgerScope, rows: repo.RefundRow[]): Promise<Refund[]> {
    const byId = await this.presenter.byIds(
      this.db,
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
    return { count, results: await this.present(scope, rows) };
  }

  async get(scope: LedgerScope, id: string): Promise<Refund> {
    const row = isUuid(id) ? await repo.findRefund(this.db, scope.environmentId, id) : undefined;
    if (!row) throw refundNotFound(id);
    const [refund] = await this.present(scope, [row]);
    return refund!;
  }
}
