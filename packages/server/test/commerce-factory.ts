import { randomUUID } from 'node:crypto';
import { randomBase62 } from '../src/lib/crypto.js';
import { invoiceId as newInvoiceId, orderId as newOrderId } from '../src/modules/purchases/ids.js';
import { currencyDigits, formatMinor } from '../src/lib/money.js';
import { morFee } from '../src/modules/billing/fees.compute.js';
import { catalogClient, monthly } from './catalog-support.js';
import { environmentIdOf, prefixOf, uniqueId, type TestOrg, type TestServer } from './harness.js';

/**
 * Money records written straight into the database, as the charge and
 * subscription flows write them: a COMPLETE (or other) order with its invoice,
 * its CHARGE transaction, its payment method and its timeline. Tests of orders,
 * invoices, transactions and refunds use it instead of going through a charge.
 */

type Environment = 'sandbox' | 'production';

export interface Seller {
  server: TestServer;
  org: TestOrg;
  environment: Environment;
  environmentId: string;
  organizationId: string;
  organizationName: string;
  /** Server key of the environment. */
  key: string;
  /** `/sandbox/api/v1` or `/api/v1`. */
  api: string;
  product: { id: string; name: string; identifier: string };
  plan: { id: string; identifier: string; versionId: string; version: number; priceId: string };
}

export interface TestCustomer {
  id: string;
  customerId: string;
  name: string | null;
  email: string | null;
  billingAddress: Record<string, unknown> | null;
}

const db = (seller: Seller) => seller.server.database.db;

/** A product and a plan (with a monthly price) in one environment of an organization. */
export async function commerceSeller(server: TestServer, org: TestOrg, environment: Environment = 'sandbox'): Promise<Seller> {
  const key = org[environment].serverKey;
  const catalog = catalogClient(server, key, prefixOf(environment));
  const productName = uniqueId('Product');
  const product = await catalog.product(productName);
  const plan = await catalog.plan(product.id, { name: 'Growth plan' });
  await catalog.prices(plan.identifier, [monthly(1000)]);
  const environmentId = await environmentIdOf(server, org.organizationId, environment);
  const organization = await server.database.db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', org.organizationId)
    .executeTakeFirstOrThrow();
  const planRow = await server.database.db
    .selectFrom('plans as p')
    .innerJoin('plan_versions as v', 'v.plan_id', 'p.id')
    .innerJoin('plan_prices as pp', 'pp.plan_version_id', 'v.id')
    .select(['p.id', 'v.id as version_id', 'v.version', 'pp.id as price_id'])
    .where('p.environment_id', '=', environmentId)
    .where('p.identifier', '=', plan.identifier)
    .orderBy('v.version', 'desc')
    .executeTakeFirstOrThrow();
  return {
    server,
    org,
    environment,
    environmentId,
    organizationId: org.organizationId,
    organizationName: organization.name,
    key,
    api: `${prefixOf(environment)}/api/v1`,
    product: { id: product.id, name: product.name, identifier: product.identifier },
    plan: {
      id: planRow.id,
      identifier: plan.identifier,
      versionId: planRow.version_id,
      version: planRow.version,
      priceId: planRow.price_id,
    },
  };
}

/** A customer, created through the API. */
export async function createCustomer(
  seller: Seller,
  fields: { customerId?: string; name?: string | null; email?: string | null; billingAddress?: Record<string, unknown> | null } = {},
): Promise<TestCustomer> {
  const customerId = fields.customerId ?? uniqueId('cust');
  const res = await seller.server.request('POST', `${seller.api}/customers/`, {
    key: seller.key,
    body: {
      customerId,
      name: fields.name === undefined ? 'Ada Lovelace' : fields.name,
      email: fields.email === undefined ? `${customerId}@example.com` : fields.email,
      billingAddress:
        fields.billingAddress === undefined
          ? { line1: '12 Analytical Row', city: 'London', postalCode: 'N1 7AA', country: 'GB' }
          : fields.billingAddress,
    },
  });
  if (res.status !== 201) throw new Error(`customer: ${res.status} ${res.text}`);
  return {
    id: res.body.id,
    customerId,
    name: res.body.name,
    email: res.body.email,
    billingAddress: res.body.billingAddress,
  };
}

/** A saved card of the customer. */
export async function insertPaymentMethod(seller: Seller, customer: TestCustomer, last4 = '4242'): Promise<number> {
  const now = new Date();
  const row = await db(seller)
    .insertInto('payment_methods')
    .values({
      environment_id: seller.environmentId,
      customer_id: customer.id,
      method_type: 'card',
      brand: 'visa',
      last4,
      exp_month: 12,
      exp_year: 2034,
      funding: 'credit',
      country: 'US',
      provider_ref: `4242424242424${last4.slice(-3)}`,
      status: 'succeeded',
      is_default: false,
      created_at: now,
      modified_at: now,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An active monthly subscription row of the customer. */
export async function insertSubscription(seller: Seller, customer: TestCustomer, at = new Date()): Promise<string> {
  const id = randomUUID();
  const end = new Date(at.getTime() + 30 * 86_400_000);
  await db(seller)
    .insertInto('subscriptions')
    .values({
      id,
      environment_id: seller.environmentId,
      customer_id: customer.id,
      product_id: seller.product.id,
      plan_id: seller.plan.id,
      plan_version_id: seller.plan.versionId,
      price_id: seller.plan.priceId,
      charge_period: 'MONTHLY',
      currency: 'USD',
      status: 'active',
      amount_minor: 1200,
      quantities: '{}',
      start_date: at,
      current_period_start: at,
      current_period_end: end,
      trial_end: null,
      end_date: null,
      canceled_at: null,
      cancellation_reason: null,
      cancellation_feedback: null,
      cancellation_comment: null,
      payment_method_id: null,
      previous_subscription_id: null,
      pending_expires_at: null,
      created_at: at,
      modified_at: at,
    })
    .execute();
  return id;
}

export interface OrderOptions {
  /** What the customer paid, tax included. Default 1200. */
  totalMinor?: number;
  /** The tax inside the total. Default: a 20 % tax on top of the net (200 of 1200). */
  taxMinor?: number;
  discountMinor?: number;
  currency?: string;
  status?: 'PENDING' | 'COMPLETE' | 'FAILED' | 'REFUNDED' | 'PARTIAL_REFUND' | 'CANCELLED' | 'FRAUDULENT';
  billingType?: 'ONE_TIME' | 'SUBSCRIPTION';
  isRenewal?: boolean;
  isTrial?: boolean;
  subscriptionId?: string | null;
  /** When it was paid; default now. null: never paid. */
  paidAt?: Date | null;
  createdAt?: Date;
  /** The provider's reference of the charge; default a sandbox charge reference. null: no CHARGE transaction. */
  providerRef?: string | null;
  /** Writes a saved card with these last digits and charges it. Default '4242'; null: no method. */
  last4?: string | null;
  invoiceStatus?: 'OPEN' | 'PAID' | 'PAYMENT_FAILED';
  taxRateBp?: number;
  taxCountry?: string | null;
  lines?: { description: string; featureId: string | null; quantity: number; amountMinor: number }[];
}

export interface InsertedOrder {
  orderId: string;
  invoiceId: string;
  chargeId: string | null;
  paymentMethodId: number | null;
  totalMinor: number;
  taxMinor: number;
}

export const sandboxChargeRef = () => `ch_sandbox_${randomBase62(24)}`;

/** A paid order (COMPLETE unless told), with its invoice, CHARGE transaction and timeline. */
export async function insertOrder(seller: Seller, customer: TestCustomer, options: OrderOptions = {}): Promise<InsertedOrder> {
  const now = new Date();
  const createdAt = options.createdAt ?? options.paidAt ?? now;
  const paidAt = options.paidAt === undefined ? createdAt : options.paidAt;
  const status = options.status ?? 'COMPLETE';
  const currency = options.currency ?? 'USD';
  const total = options.totalMinor ?? 1200;
  const tax = options.taxMinor ?? Math.round(total / 6);
  const discount = options.discountMinor ?? 0;
  const subtotal = total - tax + discount;
  const billingType = options.billingType ?? (options.subscriptionId ? 'SUBSCRIPTION' : 'ONE_TIME');
  const orderId = newOrderId(createdAt);
  const invoiceId = newInvoiceId(createdAt);
  const lines = options.lines ?? [{ description: 'Growth plan (ONE_TIME)', featureId: null, quantity: 1, amountMinor: subtotal }];
  const last4 = options.last4 === undefined ? '4242' : options.last4;
  const paymentMethodId = last4 === null ? null : await insertPaymentMethod(seller, customer, last4);
  const paid = paidAt !== null && status !== 'PENDING' && status !== 'FAILED';

  await db(seller)
    .insertInto('orders')
    .values({
      id: orderId,
      environment_id: seller.environmentId,
      customer_id: customer.id,
      product_id: seller.product.id,
      plan_id: seller.plan.id,
      plan_version_id: seller.plan.versionId,
      subscription_id: options.subscriptionId ?? null,
      status,
      billing_type: billingType,
      charge_period: billingType === 'SUBSCRIPTION' ? 'MONTHLY' : 'ONE_TIME',
      is_renewal: options.isRenewal ?? false,
      is_trial: options.isTrial ?? false,
      currency,
      subtotal_minor: subtotal,
      discount_minor: discount,
      tax_minor: tax,
      total_minor: total,
      refunded_minor: status === 'REFUNDED' ? total : 0,
      tax_rate_bp: options.taxRateBp ?? 2000,
      tax_behavior: 'EXCLUSIVE',
      tax_country: options.taxCountry === undefined ? 'GB' : options.taxCountry,
      lines: JSON.stringify(lines),
      billing_address: customer.billingAddress === null ? null : JSON.stringify(customer.billingAddress),
      payment_method_id: paymentMethodId,
      paid_at: paidAt,
      created_at: createdAt,
      modified_at: createdAt,
    })
    .execute();

  await db(seller)
    .insertInto('invoices')
    .values({
      id: invoiceId,
      environment_id: seller.environmentId,
      order_id: orderId,
      customer_id: customer.id,
      status: options.invoiceStatus ?? (paid ? 'PAID' : 'OPEN'),
      currency,
      subtotal_minor: subtotal,
      discount_minor: discount,
      tax_minor: tax,
      total_minor: total,
      lines: JSON.stringify(lines),
      seller: JSON.stringify({ name: seller.organizationName }),
      buyer: JSON.stringify({
        customerId: customer.customerId,
        name: customer.name,
        email: customer.email,
        billingAddress: customer.billingAddress,
      }),
      issued_at: createdAt,
      due_at: null,
      paid_at: paid ? paidAt : null,
      modified_at: createdAt,
    })
    .execute();

  const providerRef = options.providerRef === undefined ? sandboxChargeRef() : options.providerRef;
  let chargeId: string | null = null;
  if (paid && providerRef !== null && total > 0) {
    chargeId = randomUUID();
    const fees = morFee({ grossMinor: total, currency, recurring: billingType === 'SUBSCRIPTION', international: false });
    await db(seller)
      .insertInto('transactions')
      .values({
        id: chargeId,
        environment_id: seller.environmentId,
        order_id: orderId,
        refund_id: null,
        transaction_type: 'CHARGE',
        status: 'success',
        currency,
        amount_minor: total,
        fee_minor: fees.totalMinor,
        fee_breakdown: JSON.stringify(fees.breakdown),
        tax_minor: tax,
        net_minor: total - fees.totalMinor - tax,
        payment_method_id: paymentMethodId,
        provider_ref: providerRef,
        failure_reason: null,
        available_on: new Date(createdAt.getTime() + 7 * 86_400_000).toISOString().slice(0, 10),
        created_at: createdAt,
      })
      .execute();
  }

  const events = [
    { code: 'order.created', title: 'Order created', metadata: {} },
    ...(paid
      ? [
          { code: 'order.completed', title: 'Payment completed', metadata: { primary: `+${formatMinor(total, currencyDigits(currency))}`, secondary: `card ending ${last4}` } },
          { code: 'invoice.paid', title: `Invoice ${invoiceId} paid`, metadata: { invoiceId } },
        ]
      : []),
  ];
  await db(seller)
    .insertInto('order_events')
    .values(
      events.map((event) => ({
        environment_id: seller.environmentId,
        order_id: orderId,
        subscription_id: options.subscriptionId ?? null,
        code: event.code,
        title: event.title,
        status: 'success' as const,
        metadata: JSON.stringify(event.metadata),
        created_at: createdAt,
      })),
    )
    .execute();

  return { orderId, invoiceId, chargeId, paymentMethodId, totalMinor: total, taxMinor: tax };
}

/** The order row as stored, for assertions the API does not show. */
export async function orderRow(seller: Seller, orderId: string) {
  return db(seller).selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
}

export async function transactionsOf(seller: Seller, orderId: string) {
  return db(seller)
    .selectFrom('transactions')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('seq')
    .execute();
}

export async function eventsOfType(seller: Seller, type: string) {
  return db(seller)
    .selectFrom('events')
    .selectAll()
    .where('environment_id', '=', seller.environmentId)
    .where('type', '=', type)
    .orderBy('seq')
    .execute();
}
