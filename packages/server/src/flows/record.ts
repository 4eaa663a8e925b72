import type { Clock } from '../lib/clock.js';
import { DAY_MS } from '../lib/time.js';
import { newId } from '../lib/crypto.js';
import { currencyDigits, formatMinor } from '../lib/money.js';
import type { Tx } from '../db/transaction.js';
import { morFee } from '../modules/billing/fees.compute.js';
import type { Quote } from '../modules/billing/types.js';
import { recordEvent } from '../modules/events/writer.js';
import { invoiceId as newInvoiceId, licenseKey, orderId as newOrderId } from './ids.js';
import { decimalText } from '../modules/ledger/format.js';
import { customerWebhookObject, orderWebhookObject } from '../modules/ledger/webhook.js';
import type { CustomerRow, PaymentMethodRow, PurchaseScope, ResolvedPurchase } from './purchase.js';
import { addPeriod } from '../modules/billing/billing-periods.compute.js';

const SETTLEMENT_DAYS = 7;

export interface PaidOrderInput {
  scope: PurchaseScope;
  clock: Clock;
  customer: CustomerRow;
  purchase: ResolvedPurchase;
  /** What is charged now: the quote, or a zero quote for a trial or a free plan. */
  charged: Quote;
  billingType: 'ONE_TIME' | 'SUBSCRIPTION';
  subscriptionId: string | null;
  isRenewal?: boolean;
  isTrial?: boolean;
  method: PaymentMethodRow | null;
  chargeRef: string | null;
}

export interface PaidOrder {
  /** The CHARGE transaction's id, or a fresh one when nothing was charged. */
  chargeId: string;
  orderId: string;
  invoiceId: string;
  licenseIds: string[];
}

interface LicenseConfig {
  enabled?: boolean;
  activationLimit?: number;
  activationLimitEnabled?: boolean;
  durationUnit?: 'DAY' | 'MONTH' | 'YEAR';
  durationValue?: number;
  hasExpiry?: boolean;
}

function licenseExpiry(config: LicenseConfig, from: Date): Date | null {
  if (!config.hasExpiry || !config.durationUnit) return null;
  const count = config.durationValue ?? 1;
  return addPeriod(from, config.durationUnit === 'DAY' ? 'DAILY' : config.durationUnit === 'MONTH' ? 'MONTHLY' : 'YEARLY', count);
}

/** What the environment has charged in USD so far: the fee schedule changes its rate past a volume threshold. */
async function usdVolume(tx: Tx, environmentId: string): Promise<number> {
  const row = await tx
    .selectFrom('transactions')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_minor'), eb.lit(0)).as('total'))
    .where('environment_id', '=', environmentId)
    .where('transaction_type', '=', 'CHARGE')
    .where('status', '=', 'success')
    .where('currency', '=', 'USD')
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * A paid purchase, recorded in the caller's transaction: a COMPLETE order, its
 * PAID invoice, the CHARGE transaction (when money moved), license keys when
 * the plan issues them, the order's timeline, and the business events.
 */
export async function recordPaidOrder(tx: Tx, input: PaidOrderInput): Promise<PaidOrder> {
  const { scope, clock, customer, purchase, charged } = input;
  const now = clock.now();
  const orderId = newOrderId(now);
  const invoiceId = newInvoiceId(now);
  const address = customer.billing_address;
  const productRef = { id: purchase.product.id, name: purchase.product.name };

  const order = await tx
    .insertInto('orders')
    .values({
      id: orderId,
      environment_id: scope.environmentId,
      customer_id: customer.id,
      product_id: purchase.product.id,
      plan_id: purchase.plan.id,
      plan_version_id: purchase.version.id,
      subscription_id: input.subscriptionId,
      status: 'COMPLETE',
      billing_type: input.billingType,
      charge_period: charged.chargePeriod,
      is_renewal: input.isRenewal ?? false,
      is_trial: input.isTrial ?? false,
      currency: charged.currency,
      subtotal_minor: charged.subtotalMinor,
      discount_minor: charged.discountMinor,
      tax_minor: charged.taxMinor,
      total_minor: charged.totalMinor,
      tax_rate_bp: charged.taxRateBp,
      tax_behavior: charged.taxBehavior,
      tax_country: charged.taxCountry,
      lines: JSON.stringify(charged.lines),
      billing_address: address === null ? null : JSON.stringify(address),
      payment_method_id: input.method?.id ?? null,
      paid_at: now,
      created_at: now,
      modified_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

  const org = await tx.selectFrom('organizations').select(['name']).where('id', '=', scope.organizationId).executeTakeFirstOrThrow();
  await tx
    .insertInto('invoices')
    .values({
      id: invoiceId,
      environment_id: scope.environmentId,
      order_id: orderId,
      customer_id: customer.id,
      status: 'PAID',
      currency: charged.currency,
      subtotal_minor: charged.subtotalMinor,
      discount_minor: charged.discountMinor,
      tax_minor: charged.taxMinor,
      total_minor: charged.totalMinor,
      lines: JSON.stringify(charged.lines),
      seller: JSON.stringify({ name: org.name }),
      buyer: JSON.stringify({ customerId: customer.customer_id, name: customer.name, email: customer.email, billingAddress: address }),
      issued_at: now,
      due_at: null,
      paid_at: now,
      modified_at: now,
    })
    .execute();

  const chargeId = newId();
  if (charged.totalMinor > 0) {
    const fees = morFee({
      grossMinor: charged.totalMinor,
      currency: charged.currency,
      recurring: input.billingType === 'SUBSCRIPTION',
      // The seller's country is not known yet, so no card counts as foreign.
      international: false,
      priorVolumeUsdMinor: await usdVolume(tx, scope.environmentId),
    });
    const available = new Date(now.getTime() + SETTLEMENT_DAYS * DAY_MS);
    await tx
      .insertInto('transactions')
      .values({
        id: chargeId,
        environment_id: scope.environmentId,
        order_id: orderId,
        refund_id: null,
        transaction_type: 'CHARGE',
        status: 'success',
        currency: charged.currency,
        amount_minor: charged.totalMinor,
        fee_minor: fees.totalMinor,
        fee_breakdown: JSON.stringify(fees.breakdown),
        tax_minor: charged.taxMinor,
        net_minor: charged.totalMinor - fees.totalMinor - charged.taxMinor,
        payment_method_id: input.method?.id ?? null,
        provider_ref: input.chargeRef,
        failure_reason: null,
        available_on: available.toISOString().slice(0, 10),
        created_at: now,
      })
      .execute();
  }

  const licenseIds: string[] = [];
  const license = (purchase.version.license ?? null) as LicenseConfig | null;
  if (license?.enabled) {
    const id = newId();
    await tx
      .insertInto('licenses')
      .values({
        id,
        environment_id: scope.environmentId,
        customer_id: customer.id,
        order_id: orderId,
        subscription_id: input.subscriptionId,
        plan_version_id: purchase.version.id,
        license_key: licenseKey(),
        activation_limit: license.activationLimitEnabled ? (license.activationLimit ?? 1) : null,
        activation_limit_enabled: license.activationLimitEnabled ?? false,
        expires_on: licenseExpiry(license, now),
        enabled: true,
        created_at: now,
      })
      .execute();
    licenseIds.push(id);
  }

  if (customer.currency === null) {
    await tx.updateTable('customers').set({ currency: charged.currency }).where('id', '=', customer.id).execute();
  }

  const digits = currencyDigits(charged.currency);
  const method = input.method ? `card ending ${input.method.last4}` : input.isTrial ? 'trial' : 'no payment needed';
  const timeline = [
    { code: 'order.created', title: 'Order created', metadata: {} },
    {
      code: 'order.completed',
      title: 'Payment completed',
      metadata: { primary: `+${formatMinor(charged.totalMinor, digits)}`, secondary: method },
    },
    { code: 'invoice.paid', title: `Invoice ${invoiceId} paid`, metadata: { invoiceId } },
  ];
  await tx
    .insertInto('order_events')
    .values(
      timeline.map((event) => ({
        environment_id: scope.environmentId,
        order_id: orderId,
        subscription_id: input.subscriptionId,
        code: event.code,
        title: event.title,
        status: 'success' as const,
        metadata: JSON.stringify(event.metadata),
        created_at: now,
      })),
    )
    .execute();

  const eventBase = { environmentId: scope.environmentId, organizationId: scope.organizationId, at: now };
  const orderObject = orderWebhookObject(
    order,
    { customer, product: purchase.product, plan: purchase.plan, version: purchase.version },
    scope.organizationId,
  );
  await recordEvent(tx, { ...eventBase, type: 'order.created', data: orderObject });
  const invoiceObject = {
    id: invoiceId,
    object: 'invoice',
    status: 'PAID',
    paid_at: now.toISOString(),
    amount_total: decimalText(charged.totalMinor, charged.currency),
    amount_total_units: charged.totalMinor,
    currency: charged.currency,
    due_date: null,
    order_id: orderId,
    customer_id: customer.id,
    customer: customerWebhookObject(customer),
    subscription_id: input.subscriptionId,
    organization: scope.organizationId,
    product: productRef,
    created_on: now.toISOString(),
    modified_on: now.toISOString(),
  };
  await recordEvent(tx, { ...eventBase, type: 'invoice.created', data: { ...invoiceObject, status: 'OPEN', paid_at: null } });
  await recordEvent(tx, {
    ...eventBase,
    type: 'invoice.paid',
    data: invoiceObject,
    previousAttributes: { status: 'OPEN', paid_at: null },
  });
  return { chargeId, orderId, invoiceId, licenseIds };
}
