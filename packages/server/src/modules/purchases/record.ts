import { DAY_MS } from '../../lib/time.js';
import { newId } from '../../lib/crypto.js';
import { currencyDigits, formatMinor } from '../../lib/money.js';
import type { Insertable } from 'kysely';
import type { InvoicesTable, OrderEventsTable, OrdersTable, TransactionsTable } from '../../db/schema.js';
import { beforeCommit, type Tx } from '../../db/transaction.js';
import { DEFAULT_FEE_SCHEDULE, morFee } from '../billing/fees.compute.js';
import type { Quote } from '../billing/types.js';
import { recordEvents, type EventInput } from '../events/writer.js';
import { invoiceId as newInvoiceId, licenseKey, orderId as newOrderId } from './ids.js';
import * as ledger from '../ledger/queries.js';
import { setCustomerCurrency } from '../customers/queries.js';
import { sellerBlock, sellerYear, type SellerBlock } from '../seller-profile/queries.js';
import { invoiceWebhookObject, orderWebhookObject } from '../ledger/webhook.js';
import type { CustomerRow, PaymentMethodRow, PurchaseScope, ResolvedPurchase } from './purchase.js';
import { addPeriod } from '../billing/billing-periods.compute.js';
import { buyerSnapshot, issuedLines, type LinePeriods } from '../invoices/issue.compute.js';
import { failpoint } from '../../lib/failpoints.js';

const SETTLEMENT_DAYS = 7;

export interface PaidOrderInput {
  scope: PurchaseScope;
  /** When the purchase is recorded: the customer's time (a test clock's when it has one). */
  now: Date;
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
  /** The period a subscription's invoice bills, when the billing engine issues it (one invoice a period). */
  period?: { start: Date; end: Date };
  /** The periods the invoice's lines are for (decision 0064); `service` defaults to `period`. */
  linePeriods?: LinePeriods;
  /** Customer credit that pays part of `charged` (also counted in its discountMinor). */
  creditMinor?: number;
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

export type Recorded = PaidOrderInput & { orderId: string; invoiceId: string };

/** A payment of an order that was collected: what its transaction and timeline are written from. */
export interface CollectedPayment {
  scope: PurchaseScope;
  now: Date;
  orderId: string;
  invoiceId: string;
  subscriptionId: string | null;
  billingType: 'ONE_TIME' | 'SUBSCRIPTION';
  charged: Pick<Quote, 'totalMinor' | 'currency' | 'taxMinor'>;
  method: PaymentMethodRow | null;
  chargeRef: string | null;
  isTrial?: boolean;
}

/** The order of a purchase: COMPLETE once paid, PENDING while a renewal waits for its payment (never shown). */
export async function writeOrder(tx: Tx, r: Recorded, status: 'COMPLETE' | 'PENDING' = 'COMPLETE') {
  return ledger.insertOrder(tx, orderRow(r, status));
}

function orderRow(r: Recorded, status: 'COMPLETE' | 'PENDING'): Insertable<OrdersTable> {
  const { scope, customer, purchase, charged } = r;
  const address = customer.billing_address;
  return {
    id: r.orderId,
    environment_id: scope.environmentId,
    customer_id: customer.id,
    product_id: purchase.product.id,
    plan_id: purchase.plan.id,
    plan_version_id: purchase.version.id,
    subscription_id: r.subscriptionId,
    status,
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
    paid_at: status === 'COMPLETE' ? r.now : null,
    created_at: r.now,
    modified_at: r.now,
  };
}

/** The order's invoice: PAID with it, unless `unpaid` says how a renewal's invoice waits (OPEN or PAYMENT_FAILED). */
export async function writeInvoice(tx: Tx, r: Recorded, unpaid: Partial<Insertable<InvoicesTable>> = {}): Promise<void> {
  await ledger.insertInvoice(tx, await invoiceRow(tx, r, unpaid));
}

/**
 * Numbers the invoice in the seller's sequence just before the commit (decisions 0062 and
 * 0124): the counter every issuer of the environment waits on is then locked for the commit alone.
 */
function numberBeforeCommit(tx: Tx, r: Recorded, seller: SellerBlock): void {
  const numbered = { id: r.invoiceId, environmentId: r.scope.environmentId, year: sellerYear(r.now, seller.timeZone), prefix: seller.invoicePrefix };
  beforeCommit(tx, async () => {
    await ledger.numberInvoice(tx, numbered);
    // A crash here, before the commit, must give the number back (test/invoice-number-crash.test.ts).
    failpoint('invoice.after-number');
  });
}

async function invoiceRow(tx: Tx, r: Recorded, unpaid: Partial<Insertable<InvoicesTable>>): Promise<Insertable<InvoicesTable>> {
  const { scope, customer, charged } = r;
  const seller = await sellerBlock(tx, scope.organizationId, scope.environmentId);
  numberBeforeCommit(tx, r, seller);
  // The seller as the invoice names them; the language and time zone stay: the document is written in them.
  const { invoicePrefix: _prefix, ...printed } = seller;
  return {
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
    lines: JSON.stringify(issuedLines(charged.lines, { service: r.period ?? null, ...r.linePeriods })),
    seller: JSON.stringify(printed),
    buyer: JSON.stringify(buyerSnapshot(customer, charged.buyerTaxId?.value ?? null)),
    credit_minor: r.creditMinor ?? 0,
    // The tax decision (tax.compute.ts): the rate and country are the order's, the reason and the id the invoice's.
    tax_reason: charged.taxReason ?? null,
    buyer_tax_id: charged.buyerTaxId ? JSON.stringify(charged.buyerTaxId) : null,
    issued_at: r.now,
    due_at: null,
    paid_at: r.now,
    modified_at: r.now,
    ...unpaid,
  };
}

/**
 * Environments whose volume has reached the fee schedule's threshold: volume only
 * grows, so once known, a process never asks again.
 */
const highVolumeEnvironments = new Set<string>();

async function highVolumeSeller(tx: Tx, environmentId: string): Promise<boolean> {
  if (highVolumeEnvironments.has(environmentId)) return true;
  const reached = await ledger.usdVolumeReached(tx, environmentId, DEFAULT_FEE_SCHEDULE.highVolumeThresholdUsdMinor);
  if (reached) highVolumeEnvironments.add(environmentId);
  return reached;
}

/** The CHARGE transaction with its merchant-of-record fee, when money moved. */
export async function writeCharge(tx: Tx, r: CollectedPayment, chargeId: string): Promise<void> {
  await ledger.insertTransaction(tx, await chargeRow(tx, r, chargeId));
}

async function chargeRow(tx: Tx, r: CollectedPayment, chargeId: string): Promise<Insertable<TransactionsTable>> {
  const { scope, charged } = r;
  const fees = morFee({
    grossMinor: charged.totalMinor,
    currency: charged.currency,
    recurring: r.billingType === 'SUBSCRIPTION',
    // The seller's country is not known yet, so no card counts as foreign.
    international: false,
    highVolume: await highVolumeSeller(tx, scope.environmentId),
  });
  const available = new Date(r.now.getTime() + SETTLEMENT_DAYS * DAY_MS);
  return {
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
  };
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

export async function writeTimeline(tx: Tx, r: CollectedPayment): Promise<void> {
  await ledger.insertOrderEvents(tx, timelineRows(r));
}

function timelineRows(r: CollectedPayment): Insertable<OrderEventsTable>[] {
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
  return timeline.map((event) => ({
    environment_id: r.scope.environmentId,
    order_id: r.orderId,
    subscription_id: r.subscriptionId,
    code: event.code,
    title: event.title,
    status: 'success' as const,
    metadata: JSON.stringify(event.metadata),
    created_at: r.now,
  }));
}

/** order.created, invoice.created and invoice.paid, then `after` (events of the caller's), in one insert. */
async function announce(tx: Tx, r: Recorded, order: ledger.OrderRow, after: EventInput[]): Promise<void> {
  const { scope, customer, purchase, charged } = r;
  const eventBase = { environmentId: scope.environmentId, organizationId: scope.organizationId, at: r.now };
  const orderObject = orderWebhookObject(
    order,
    { customer, product: purchase.product, plan: purchase.plan, version: purchase.version },
    scope.organizationId,
  );
  const invoice = {
    id: r.invoiceId,
    status: 'PAID' as const,
    paid_at: r.now,
    total_minor: charged.totalMinor,
    currency: charged.currency,
    due_at: null,
    order_id: r.orderId,
    issued_at: r.now,
    modified_at: r.now,
  };
  const parts = { customer, product: purchase.product, subscriptionId: r.subscriptionId };
  const invoiceObject = invoiceWebhookObject(invoice, parts, scope.organizationId);
  await recordEvents(tx, [
    { ...eventBase, type: 'order.created', data: orderObject },
    { ...eventBase, type: 'invoice.created', data: { ...invoiceObject, status: 'OPEN', paid_at: null } },
    { ...eventBase, type: 'invoice.paid', data: invoiceObject, previousAttributes: { status: 'OPEN', paid_at: null } },
    ...after,
  ]);
}

/** The columns that tie a billing engine's invoice to its subscription and period. */
export function periodFields(input: PaidOrderInput, attempts: number): Partial<Insertable<InvoicesTable>> {
  if (!input.period) return {};
  return { subscription_id: input.subscriptionId, period_start: input.period.start, period_end: input.period.end, attempt_count: attempts };
}

/** A purchase about to be recorded, with its time and the ids of its order and invoice. */
export function recordedOf(input: PaidOrderInput): Recorded {
  return { ...input, orderId: newOrderId(input.now), invoiceId: newInvoiceId(input.now) };
}

/**
 * A paid purchase, recorded in the caller's transaction: a COMPLETE order, its
 * PAID invoice, the CHARGE transaction (when money moved), license keys when
 * the plan issues them, the order's timeline, and the business events (followed by
 * `after`, the caller's own, written in the same statement).
 */
export async function recordPaidOrder(tx: Tx, input: PaidOrderInput, after: EventInput[] = []): Promise<PaidOrder> {
  const recorded = recordedOf(input);
  const chargeId = newId();
  // The order, its invoice, its charge and its timeline in one statement.
  const order = await ledger.insertOrderRecords(tx, {
    order: orderRow(recorded, 'COMPLETE'),
    invoice: await invoiceRow(tx, recorded, periodFields(input, 1)),
    charge: input.charged.totalMinor > 0 ? await chargeRow(tx, recorded, chargeId) : null,
    timeline: timelineRows(recorded),
  });
  // A renewal keeps the license keys of the first purchase.
  const licenseIds = input.isRenewal ? [] : await issueLicense(tx, recorded);
  if (input.customer.currency === null) await setCustomerCurrency(tx, input.customer.id, input.charged.currency);
  await announce(tx, recorded, order, after);
  return { chargeId, orderId: recorded.orderId, invoiceId: recorded.invoiceId, licenseIds };
}
