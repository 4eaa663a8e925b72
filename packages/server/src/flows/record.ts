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
import * as ledger from '../modules/ledger/repo.js';
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

type Recorded = PaidOrderInput & { now: Date; orderId: string; invoiceId: string };

async function writeOrder(tx: Tx, r: Recorded) {
  const { scope, customer, purchase, charged } = r;
  const address = customer.billing_address;
  return ledger.insertOrder(tx, {
    id: r.orderId,
    environment_id: scope.environmentId,
    customer_id: customer.id,
    product_id: purchase.product.id,
    plan_id: purchase.plan.id,
    plan_version_id: purchase.version.id,
    subscription_id: r.subscriptionId,
    status: 'COMPLETE',
    billing_type: r.billingType,
    charge_period: charged.chargePeriod,
    is_renewal: r.isRenewal ?? false,
    is_trial: r.isTrial ?? false,
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
    payment_method_id: r.method?.id ?? null,
    paid_at: r.now,
    created_at: r.now,
    modified_at: r.now,
  });
}

async function writeInvoice(tx: Tx, r: Recorded): Promise<void> {
  const { scope, customer, charged } = r;
  await ledger.insertInvoice(tx, {
    id: r.invoiceId,
    environment_id: scope.environmentId,
    order_id: r.orderId,
    customer_id: customer.id,
    status: 'PAID',
    currency: charged.currency,
    subtotal_minor: charged.subtotalMinor,
    discount_minor: charged.discountMinor,
    tax_minor: charged.taxMinor,
    total_minor: charged.totalMinor,
    lines: JSON.stringify(charged.lines),
    seller: JSON.stringify({ name: await ledger.organizationName(tx, scope.organizationId) }),
    buyer: JSON.stringify({ customerId: customer.customer_id, name: customer.name, email: customer.email, billingAddress: customer.billing_address }),
    issued_at: r.now,
    due_at: null,
    paid_at: r.now,
    modified_at: r.now,
  });
}

/** The CHARGE transaction with its merchant-of-record fee, when money moved. */
async function writeCharge(tx: Tx, r: Recorded, chargeId: string): Promise<void> {
  const { scope, charged } = r;
  const fees = morFee({
    grossMinor: charged.totalMinor,
    currency: charged.currency,
    recurring: r.billingType === 'SUBSCRIPTION',
    // The seller's country is not known yet, so no card counts as foreign.
    international: false,
    priorVolumeUsdMinor: await ledger.usdChargedVolume(tx, scope.environmentId),
  });
  const available = new Date(r.now.getTime() + SETTLEMENT_DAYS * DAY_MS);
  await ledger.insertTransaction(tx, {
    id: chargeId,
    environment_id: scope.environmentId,
    order_id: r.orderId,
    refund_id: null,
    transaction_type: 'CHARGE',
    status: 'success',
    currency: charged.currency,
    amount_minor: charged.totalMinor,
    fee_minor: fees.totalMinor,
    fee_breakdown: JSON.stringify(fees.breakdown),
    tax_minor: charged.taxMinor,
    net_minor: charged.totalMinor - fees.totalMinor - charged.taxMinor,
    payment_method_id: r.method?.id ?? null,
    provider_ref: r.chargeRef,
    failure_reason: null,
    available_on: available.toISOString().slice(0, 10),
    created_at: r.now,
  });
}

/** A license key, when the plan version issues them. */
async function issueLicense(tx: Tx, r: Recorded): Promise<string[]> {
  const license = (r.purchase.version.license ?? null) as LicenseConfig | null;
  if (!license?.enabled) return [];
  const id = newId();
  await ledger.insertLicense(tx, {
    id,
    environment_id: r.scope.environmentId,
    customer_id: r.customer.id,
    order_id: r.orderId,
    subscription_id: r.subscriptionId,
    plan_version_id: r.purchase.version.id,
    license_key: licenseKey(),
    activation_limit: license.activationLimitEnabled ? (license.activationLimit ?? 1) : null,
    activation_limit_enabled: license.activationLimitEnabled ?? false,
    expires_on: licenseExpiry(license, r.now),
    enabled: true,
    created_at: r.now,
  });
  return [id];
}

async function writeTimeline(tx: Tx, r: Recorded): Promise<void> {
  const { charged } = r;
  const method = r.method ? `card ending ${r.method.last4}` : r.isTrial ? 'trial' : 'no payment needed';
  const timeline = [
    { code: 'order.created', title: 'Order created', metadata: {} },
    {
      code: 'order.completed',
      title: 'Payment completed',
      metadata: { primary: `+${formatMinor(charged.totalMinor, currencyDigits(charged.currency))}`, secondary: method },
    },
    { code: 'invoice.paid', title: `Invoice ${r.invoiceId} paid`, metadata: { invoiceId: r.invoiceId } },
  ];
  await ledger.insertOrderEvents(
    tx,
    timeline.map((event) => ({
      environment_id: r.scope.environmentId,
      order_id: r.orderId,
      subscription_id: r.subscriptionId,
      code: event.code,
      title: event.title,
      status: 'success' as const,
      metadata: JSON.stringify(event.metadata),
      created_at: r.now,
    })),
  );
}

/** order.created, invoice.created and invoice.paid. */
async function announce(tx: Tx, r: Recorded, order: ledger.OrderRow): Promise<void> {
  const { scope, customer, purchase, charged } = r;
  const eventBase = { environmentId: scope.environmentId, organizationId: scope.organizationId, at: r.now };
  const orderObject = orderWebhookObject(
    order,
    { customer, product: purchase.product, plan: purchase.plan, version: purchase.version },
    scope.organizationId,
  );
  await recordEvent(tx, { ...eventBase, type: 'order.created', data: orderObject });
  const invoiceObject = {
    id: r.invoiceId,
    object: 'invoice',
    status: 'PAID',
    paid_at: r.now.toISOString(),
    amount_total: decimalText(charged.totalMinor, charged.currency),
    amount_total_units: charged.totalMinor,
    currency: charged.currency,
    due_date: null,
    order_id: r.orderId,
    customer_id: customer.id,
    customer: customerWebhookObject(customer),
    subscription_id: r.subscriptionId,
    organization: scope.organizationId,
    product: { id: purchase.product.id, name: purchase.product.name },
    created_on: r.now.toISOString(),
    modified_on: r.now.toISOString(),
  };
  await recordEvent(tx, { ...eventBase, type: 'invoice.created', data: { ...invoiceObject, status: 'OPEN', paid_at: null } });
  await recordEvent(tx, { ...eventBase, type: 'invoice.paid', data: invoiceObject, previousAttributes: { status: 'OPEN', paid_at: null } });
}

/**
 * A paid purchase, recorded in the caller's transaction: a COMPLETE order, its
 * PAID invoice, the CHARGE transaction (when money moved), license keys when
 * the plan issues them, the order's timeline, and the business events.
 */
export async function recordPaidOrder(tx: Tx, input: PaidOrderInput): Promise<PaidOrder> {
  const now = input.clock.now();
  const recorded: Recorded = { ...input, now, orderId: newOrderId(now), invoiceId: newInvoiceId(now) };
  const order = await writeOrder(tx, recorded);
  await writeInvoice(tx, recorded);
  const chargeId = newId();
  if (input.charged.totalMinor > 0) await writeCharge(tx, recorded, chargeId);
  const licenseIds = await issueLicense(tx, recorded);
  if (input.customer.currency === null) await ledger.setCustomerCurrency(tx, input.customer.id, input.charged.currency);
  await writeTimeline(tx, recorded);
  await announce(tx, recorded, order);
  return { chargeId, orderId: recorded.orderId, invoiceId: recorded.invoiceId, licenseIds };
}
