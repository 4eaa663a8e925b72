import type { Selectable } from 'kysely';
import type { EnvironmentKind } from '../config.js';
import type { Tx } from '../db/transaction.js';
import type { CustomersTable, PaymentMethodsTable, PlansTable, PlanVersionsTable, ProductsTable } from '../db/schema.js';
import { badRequest } from '../http/errors.js';
import { newId } from '../lib/crypto.js';
import { countryOfIp } from '../lib/geoip.js';
import { isCurrency } from '../lib/money.js';
import { PricingError, quotePurchase } from '../modules/billing/pricing.compute.js';
import { taxRateBp } from '../modules/billing/tax.compute.js';
import type { Quote } from '../modules/billing/types.js';
import { findFeatures, findFeaturesById } from '../modules/catalog/features/repo.js';
import { findPlan, findVersion } from '../modules/catalog/plans/repo.js';
import { enabledPrice, toStored } from '../modules/catalog/prices/repo.js';
import { findProduct, settingsCurrency } from '../modules/catalog/products/repo.js';
import { lockCustomerRow } from '../modules/customers/repo.js';
import { organizationBlock } from '../modules/tenancy/repo.js';
import type { StoredPrice } from '../modules/catalog/prices/prices.compute.js';

export type CustomerRow = Selectable<CustomersTable>;
export type PaymentMethodRow = Selectable<PaymentMethodsTable>;

export interface PurchaseScope {
  organizationId: string;
  environmentId: string;
  environment: EnvironmentKind;
}

export interface FeatureQuantity {
  identifier: string;
  quantity: number;
}

export interface PurchaseInput {
  planIdentifier: string;
  chargePeriod: string;
  features?: FeatureQuantity[] | null;
  currencyCode?: string | null;
  /** Locates the buyer for tax when the customer has no billing country. */
  ipAddress?: string | null;
}

export interface ResolvedPurchase {
  product: Selectable<ProductsTable>;
  plan: Selectable<PlansTable>;
  version: Selectable<PlanVersionsTable>;
  priceId: string;
  price: StoredPrice;
  quantities: Record<string, number>;
  quote: Quote;
}

/** How a purchase starts a subscription record (a recurring subscription, or a one-time purchase's grant). */
export interface SubscriptionStart {
  chargePeriod: string;
  status: 'active' | 'trialing';
  now: Date;
  /** When the customer first subscribed (a plan change keeps it); now by default. */
  startDate?: Date;
  /** The current period's start; now by default. */
  periodStart?: Date;
  periodEnd: Date | null;
  trialEnd: Date | null;
  paymentMethodId: number | null;
}

/** The subscriptions row of a purchase: its product, plan version, price, currency, amount and quantities. */
export function subscriptionValues(scope: PurchaseScope, customer: CustomerRow, purchase: ResolvedPurchase, start: SubscriptionStart) {
  return {
    id: newId(),
    environment_id: scope.environmentId,
    customer_id: customer.id,
    product_id: purchase.product.id,
    plan_id: purchase.plan.id,
    plan_version_id: purchase.version.id,
    price_id: purchase.priceId,
    charge_period: start.chargePeriod,
    currency: purchase.quote.currency,
    status: start.status,
    amount_minor: purchase.quote.totalMinor,
    quantities: JSON.stringify(purchase.quantities),
    start_date: start.startDate ?? start.now,
    current_period_start: start.periodStart ?? start.now,
    current_period_end: start.periodEnd,
    trial_end: start.trialEnd,
    payment_method_id: start.paymentMethodId,
    created_at: start.now,
    modified_at: start.now,
  };
}

export const customerMissing = () => badRequest('Customer does not exist.', 'customer_not_found');

/** The customer, locked for the rest of the transaction: money operations on one customer run one at a time. */
export async function lockCustomer(tx: Tx, environmentId: string, customerId: string): Promise<CustomerRow> {
  const customer = await lockCustomerRow(tx, environmentId, customerId);
  if (!customer || customer.archived_at) throw customerMissing();
  return customer;
}

export async function assertNotBlocked(tx: Tx, organizationId: string): Promise<void> {
  const org = await organizationBlock(tx, organizationId);
  if (org?.blocked_at) {
    throw badRequest(
      `This organization is blocked from taking payments${org.blocked_reason ? `: ${org.blocked_reason}` : ''}`,
      'organization_blocked',
    );
  }
}

/** Which currency a purchase is in: the customer's (fixed by its first purchase), else the one asked for, else the product's. */
export function purchaseCurrency(customer: CustomerRow, requested: string | null | undefined, productCurrency: string | null): string {
  const asked = requested ? requested.trim().toUpperCase() : null;
  if (asked && !isCurrency(asked)) throw badRequest(`currencyCode: "${requested}" is not an ISO 4217 currency code`, 'validation_error');
  if (customer.currency && asked && asked !== customer.currency) {
    throw badRequest(
      `currencyCode ${asked} differs from the customer's currency ${customer.currency}; a customer pays in one currency`,
      'currency_mismatch',
    );
  }
  return customer.currency ?? asked ?? productCurrency ?? 'USD';
}

/**
 * What the customer buys and what it costs: the plan's published version, its
 * enabled price in the purchase currency, quantities by feature id, and the quote.
 */
export async function resolvePurchase(tx: Tx, scope: PurchaseScope, customer: CustomerRow, input: PurchaseInput): Promise<ResolvedPurchase> {
  const plan = await findPlan(tx, scope.environmentId, input.planIdentifier);
  if (!plan) throw badRequest(`planIdentifier: no plan "${input.planIdentifier}"`, 'plan_not_found');
  if (plan.archived_at) throw badRequest(`Plan "${input.planIdentifier}" is archived`, 'plan_archived');
  if (plan.published_version === null) {
    throw badRequest(`Plan "${input.planIdentifier}" is not published; publish it before selling it`, 'plan_not_published');
  }
  const version = (await findVersion(tx, plan.id, plan.published_version))!;
  const product = (await findProduct(tx, scope.environmentId, plan.product_id))!;
  if (product.archived_at) throw badRequest(`The product of plan "${input.planIdentifier}" is archived`, 'product_archived');

  const currency = purchaseCurrency(customer, input.currencyCode, await settingsCurrency(tx, product.id));
  const priceRow = await enabledPrice(tx, version.id, currency);
  if (!priceRow) {
    throw badRequest(`Plan "${input.planIdentifier}" has no enabled price in ${currency}`, 'price_not_found');
  }
  const price = toStored(priceRow);

  const wanted = input.features ?? [];
  const features = await findFeatures(tx, scope.environmentId, wanted.map((f) => f.identifier));
  const quantities: Record<string, number> = {};
  for (const [i, item] of wanted.entries()) {
    const feature = features.find((f) => f.identifier === item.identifier);
    if (!feature) throw badRequest(`features[${i}].identifier: no feature "${item.identifier}"`, 'validation_error');
    quantities[feature.id] = item.quantity;
  }
  const priced = price.chargeCatalogPrice.flatMap((entry) => (entry.feature ? [entry.feature] : []));
  const names = Object.fromEntries((await findFeaturesById(tx, priced)).map((f) => [f.id, f.name]));

  const country = (customer.billing_address as { country?: string } | null)?.country ?? countryOfIp(input.ipAddress);
  let quote: Quote;
  try {
    quote = quotePurchase({
      price,
      chargePeriod: input.chargePeriod,
      quantities,
      taxRateBp: taxRateBp(country),
      taxCountry: country,
      planName: version.name,
      featureNames: names,
    });
  } catch (error) {
    if (error instanceof PricingError) throw badRequest(error.message, 'pricing_error');
    throw error;
  }
  return { product, plan, version, priceId: priceRow.id, price, quantities, quote };
}
