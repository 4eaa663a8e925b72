import type { BillingAddress, Order, OrderSubscriptionSummary } from '@billow/contract';
import type { Executor } from '../../db/transaction.js';
import { summarizeLicenses } from '../licenses/summary.js';
import { filesOf, imagesOf, productFilesOf } from '../catalog/queries.js';
import { toProduct, type ImageUrls } from '../catalog/products/view.js';
import { toPlan } from '../catalog/plans/view.js';
import { currencySymbol, decimalText } from './format.js';
import * as repo from './repo.js';

export type { ImageUrls };

/** Where links in a representation point: the caller's root and API base. */
export interface PresentContext {
  baseUrl: string;
  apiBase: string;
}

const INTERVALS: Record<string, string> = {
  DAILY: 'day',
  WEEKLY: 'week',
  TWENTY_EIGHT_DAYS: 'day',
  MONTHLY: 'month',
  QUARTERLY: 'month',
  THREE_MONTHS: 'month',
  SIX_MONTHS: 'month',
  YEARLY: 'year',
};

const LIVE_SUBSCRIPTION = new Set(['active', 'trialing', 'past_due']);

export function subscriptionSummary(row: repo.SubscriptionRow | undefined): OrderSubscriptionSummary {
  if (!row) return {};
  const renews = LIVE_SUBSCRIPTION.has(row.status) && row.end_date === null;
  const next = row.current_period_end ?? row.trial_end;
  return {
    id: row.id,
    status: row.status,
    amount: decimalText(row.amount_minor, row.currency),
    currency: row.currency.toLowerCase(),
    interval: INTERVALS[row.charge_period] ?? row.charge_period.toLowerCase(),
    currencySymbol: currencySymbol(row.currency),
    nextInvoiceDate: renews && next ? next.toISOString() : null,
  };
}

/** The stored address (camelCase, as customers keep it; snake_case read too) in the wire's shape. */
export function billingAddressOf(stored: Record<string, unknown> | null): BillingAddress | null {
  if (!stored) return null;
  const text = (...keys: string[]) => {
    for (const key of keys) {
      const value = stored[key];
      if (typeof value === 'string') return value;
    }
    return null;
  };
  return {
    country: text('country'),
    line1: text('line1'),
    line2: text('line2'),
    postalCode: text('postalCode', 'postal_code'),
    city: text('city'),
    state: text('state'),
  };
}

const byId = <T extends { id: unknown }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

function must<K, V>(map: Map<K, V>, key: K, what: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`${what} ${String(key)} is missing`);
  return value;
}

/**
 * Turns order rows into the Order of the API, loading what it embeds (customer,
 * product, plan version, licenses, subscription, invoice, payment method) for
 * all of them at once. Refunds and transactions embed the same representation.
 */
export class OrderPresenter {
  constructor(private readonly images: ImageUrls) {}

  async present(db: Executor, context: PresentContext, rows: repo.OrderRow[]): Promise<Order[]> {
    if (rows.length === 0) return [];
    const orderIds = rows.map((r) => r.id);
    const subscriptionIds = rows.map((r) => r.subscription_id);
    const [customers, products, plans, versions, subscriptions, invoices, licenses, methods] = await Promise.all([
      repo.customersByIds(db, rows.map((r) => r.customer_id)),
      repo.productsByIds(db, rows.map((r) => r.product_id)),
      repo.plansByIds(db, rows.map((r) => r.plan_id)),
      repo.versionsByIds(db, rows.map((r) => r.plan_version_id)),
      repo.subscriptionsByIds(db, subscriptionIds),
      repo.invoiceIdsOf(db, orderIds),
      repo.licensesOf(db, orderIds, subscriptionIds),
      repo.firstPaymentMethods(db, orderIds),
    ]);
    const [images, productFiles, files, summaries] = await Promise.all([
      imagesOf(
        db,
        products.map((p) => p.id),
      ),
      productFilesOf(
        db,
        products.map((p) => p.id),
      ),
      filesOf(
        db,
        versions.map((v) => v.id),
      ),
      summarizeLicenses(db, rows[0]!.environment_id, licenses),
    ]);
    const summaryOf = new Map(summaries.map((l) => [l.id, l]));
    const customerOf = byId(customers);
    const productOf = byId(products);
    const planOf = byId(plans);
    const versionOf = byId(versions);
    const subscriptionOf = byId(subscriptions);
    const invoiceOf = new Map(invoices.map((i) => [i.order_id, i.id]));
    const methodOf = new Map(methods.map((m) => [m.order_id, m.method]));

    return rows.map((row) => {
      const customer = must(customerOf, row.customer_id, 'customer');
      const currency = row.currency;
      const method = methodOf.get(row.id);
      const subscription = row.subscription_id ? subscriptionOf.get(row.subscription_id) : undefined;
      const license = licenses.filter(
        (l) => l.order_id === row.id || (row.subscription_id !== null && l.subscription_id === row.subscription_id),
      );
      return {
        id: row.id,
        customer: { customerId: customer.customer_id, name: customer.name, email: customer.email },
        product: toProduct(must(productOf, row.product_id, 'product'), images, productFiles, { urls: this.images, baseUrl: context.baseUrl, apiBase: context.apiBase }),
        status: row.status,
        paidAt: row.paid_at ? row.paid_at.toISOString() : null,
        amountSubtotal: decimalText(row.subtotal_minor, currency),
        amountDiscount: decimalText(row.discount_minor, currency),
        amountTax: decimalText(row.tax_minor, currency),
        amountTotal: decimalText(row.total_minor, currency),
        saleCurrency: currency,
        amountSubtotalUnits: row.subtotal_minor,
        amountDiscountUnits: row.discount_minor,
        amountTaxUnits: row.tax_minor,
        amountTotalUnits: row.total_minor,
        refundedTotalUnits: row.refunded_minor,
        saleCurrencySymbol: currencySymbol(currency),
        billingAddress: billingAddressOf(row.billing_address),
        plan: toPlan(
          must(planOf, row.plan_id, 'plan'),
          must(versionOf, row.plan_version_id, 'plan version'),
          files,
          context.apiBase,
        ),
        billingType: row.billing_type,
        license: license.map((l) => summaryOf.get(l.id)!),
        isTrial: row.is_trial,
        isRenewal: row.is_renewal,
        subscription: subscriptionSummary(subscription),
        invoiceId: invoiceOf.get(row.id) ?? null,
        customFieldsData: {},
        paymentMethod: method
          ? { paymentMethodType: method.method_type, paymentMethodName: method.brand, last4: method.last4 }
          : null,
        createdOn: row.created_at.toISOString(),
        modifiedOn: row.modified_at.toISOString(),
      };
    });
  }

  async presentOne(db: Executor, context: PresentContext, row: repo.OrderRow): Promise<Order> {
    const [order] = await this.present(db, context, [row]);
    return order!;
  }

  /** Orders by id, in the order asked for (for records that embed their order). */
  async byIds(db: Executor, context: PresentContext, ids: string[]): Promise<Map<string, Order>> {
    const rows = await repo.ordersByIds(db, ids);
    const orders = await this.present(db, context, rows);
    return new Map(orders.map((o) => [o.id, o]));
  }
}
