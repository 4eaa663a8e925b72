import type { CheckoutSession, CheckoutSessionDetail, Product } from '@billow/contract';
import { currencySymbol, decimalText } from '../ledger/format.js';
import type { SessionEventRow, SessionListRow, SessionRow } from './repo.js';

/** Where the hosted page of a session lives: the server's public root, the environment's prefix, /checkout/{id}/. */
export function checkoutUrl(baseUrl: string, environment: 'sandbox' | 'production', id: string): string {
  return `${baseUrl}${environment === 'sandbox' ? '/sandbox' : ''}/checkout/${id}/`;
}

/** The successUrl with `checkout_session_id` appended to whatever query it has, before any fragment. */
export function successRedirect(successUrl: string, sessionId: string): string {
  const url = new URL(successUrl);
  url.searchParams.append('checkout_session_id', sessionId);
  return url.toString();
}

/** What the session asked for and what the buyer entered (never card data). */
function inputs(row: SessionRow) {
  return {
    planIdentifier: row.plan_identifier,
    chargePeriod: row.charge_period,
    plansEnabled: row.plans_enabled,
    features: row.features,
    currencyCode: row.currency_code,
    customAmount: row.custom_amount_minor,
    taxBehavior: row.tax_behavior,
    discountsEnabled: row.discounts_enabled,
    lockEmail: row.lock_email,
    defaultBillingCountry: row.default_billing_country,
    successUrl: row.success_url,
    cancelUrl: row.cancel_url,
    ipAddress: row.ip_address,
    // What the session pays (decision 0035): a purchase, or the pending subscription or invoice it pays.
    purpose: row.purpose,
    targetId: row.target_id,
  };
}

/** `product` is the session's product as GET /catalog/products/{id}/ shows it. */
export function presentSession(row: SessionListRow, product: Product, baseUrl: string, environment: 'sandbox' | 'production'): CheckoutSession {
  const currency = row.currency ?? row.currency_code;
  const known = row.customer_merchant_id ?? row.customer_ref;
  return {
    id: row.id,
    customer: known || row.email ? { customerId: known, name: row.customer_name ?? row.name, email: row.customer_email ?? row.email } : null,
    product,
    billingAddress: row.billing_country ? { country: row.billing_country } : null,
    discountCode: row.discount_code,
    taxId: null,
    currency,
    currencySymbol: currency ? currencySymbol(currency) : null,
    status: row.status,
    createdOn: row.created_at.toISOString(),
    expiresOn: row.expires_at.toISOString(),
    checkoutUrl: checkoutUrl(baseUrl, environment, row.id),
    selectedData: { planIdentifier: row.plan_identifier, chargePeriod: row.charge_period, features: row.features },
    offeringData: row.offering_id || row.pricing_table_id || row.rule_id
      ? { offeringId: row.offering_id, pricingTableId: row.pricing_table_id, ruleId: row.rule_id }
      : null,
    data: { ...inputs(row), name: row.name, email: row.email, referer: null },
    customFieldsData: {},
    metadata: row.metadata,
    customization: {},
    trialPeriod: null,
  };
}

export interface SessionExtras {
  order: CheckoutSessionDetail['order'];
  subscription: CheckoutSessionDetail['subscription'];
  paymentMethod: CheckoutSessionDetail['paymentMethod'];
}

export function presentDetail(
  row: SessionListRow,
  product: Product,
  baseUrl: string,
  environment: 'sandbox' | 'production',
  extras: SessionExtras,
): CheckoutSessionDetail {
  return { ...presentSession(row, product, baseUrl, environment), ...extras };
}

export function presentEvent(row: SessionEventRow) {
  return { id: row.id, title: row.title, code: row.code, status: row.status, timestamp: row.created_at.toISOString(), metadata: row.metadata };
}

export interface CompletedContext {
  customer: { id: string; customer_id: string; name: string | null; email: string | null; billing_address: unknown };
  plan: { name: string; version: number; identifier: string };
  product: { id: string; name: string };
  amountMinor: number;
  currency: string;
  features: Record<string, number> | null;
  organization: string;
  at: Date;
}

const ADDRESS = ['line1', 'line2', 'city', 'state', 'postal_code', 'country'] as const;

function addressOf(stored: unknown): Record<string, unknown> {
  const address = (stored ?? {}) as Record<string, unknown>;
  const value = (key: string) => address[key] ?? address[key.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())] ?? null;
  return Object.fromEntries(ADDRESS.map((key) => [key, value(key)]));
}

/** The `checkout_session` object of `checkout.completed` (webhook-events.json), snake_case as written. */
export function completedEventObject(row: SessionRow, c: CompletedContext): Record<string, unknown> {
  const billing = addressOf(c.customer.billing_address);
  return {
    id: row.id,
    object: 'checkout_session',
    status: 'success',
    checkout_type: row.charge_period === 'ONE_TIME' ? 'ONE_TIME' : 'SUBSCRIPTION',
    customer_id: c.customer.id,
    customer: { id: c.customer.id, name: c.customer.name, email: c.customer.email, customer_id: c.customer.customer_id, billing_address: billing },
    organization: c.organization,
    amount: decimalText(c.amountMinor, c.currency),
    amount_units: c.amountMinor,
    currency: c.currency,
    discount_code: row.discount_code ?? '',
    features: c.features,
    plan: c.plan,
    product: c.product,
    billing_address: billing,
    metadata: row.metadata,
    data: {
      name: row.name,
      email: row.email,
      referer: null,
      cancel_url: row.cancel_url,
      success_url: row.success_url,
      tax_behavior: row.tax_behavior ?? 'EXCLUSIVE',
      discounts_enabled: row.discounts_enabled,
    },
    created_on: row.created_at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    modified_on: c.at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}
