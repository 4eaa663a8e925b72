import type { Selectable } from 'kysely';
import type { EnvironmentKind } from '../../config.js';
import type { Executor, Tx } from '../../db/transaction.js';
import type { CustomersTable, PaymentMethodsTable, PlansTable, PlanVersionsTable, ProductsTable } from '../../db/schema.js';
import { newId } from '../../lib/crypto.js';
import { countryOfIp } from '../../lib/geoip.js';
import { isCurrency } from '../../lib/money.js';
import { PricingError, pricesPeriod, quotePurchase, type PurchaseRequest } from '../billing/pricing.compute.js';
import { taxDecision } from '../billing/tax.compute.js';
import type { Discount, Quote } from '../billing/types.js';
import {
  enabledPrice,
  findFeatures,
  findFeaturesById,
  findPlan,
  findProduct,
  findVersion,
  settingsCurrency,
  subscribedRows,
  toStored,
  type SubscribedRows,
} from '../catalog/queries.js';
import { lockCustomerRow, lockCustomerRowOfSubscription } from '../customers/queries.js';
import { organizationBlock } from '../tenancy/queries.js';
import { sellerTaxCountries } from '../seller-profile/queries.js';
import type { StoredPrice } from '../catalog/prices/prices.compute.js';
import {
  currencyMismatch,
  customerMissing,
  featureUnknown,
  invalidCurrencyCode,
  noPriceInCurrency,
  organizationBlocked,
  planArchived,
  planNotPublished,
  planUnknown,
  pricingFailed,
  productOfPlanArchived,
} from './errors.js';

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
  /** A checkout session's customAmount: replaces the plan's charges for this purchase (the plan still grants). */
  priceOverride?: PriceOverride | null;
  /** A discount already resolved for this purchase (the discounts module's, at checkout). */
  discount?: PurchaseDiscount | null;
  /** The promotion (location pricing) the buyer's country gets; with a discount, the better of the two applies (decision 0036). */
  promotion?: PurchasePromotion | null;
}

/** A promotion's whole percentage off, as the checkout decided it for the buyer's country. */
export interface PurchasePromotion {
  id: string;
  percent: number;
}

/** A resolved discount: a percentage, or fixed amounts per currency (the price's currency picks one). */
export interface PurchaseDiscount {
  percentOffBp?: number;
  amountsOffMinor?: Readonly<Record<string, number>>;
}

function discountIn(discount: PurchaseDiscount, currency: string): Discount {
  if (discount.percentOffBp !== undefined) return { percentOffBp: discount.percentOffBp };
  return { amountOffMinor: discount.amountsOffMinor?.[currency] ?? 0 };
}

export interface PriceOverride {
  amountMinor: number;
  taxBehavior: 'INCLUSIVE' | 'EXCLUSIVE';
}

/** The plan's price with its charges replaced by one flat amount for the period (a customAmount). */
export function overriddenPrice(price: StoredPrice, chargePeriod: string, override: PriceOverride): StoredPrice {
  return {
    ...price,
    priceType: 'PAID',
    taxBehavior: override.taxBehavior,
    chargeCatalogPrice: [
      {
        feature: null,
        priceModel: 'FLAT',
        reset: null,
        resetTime: null,
        hasUnlimitedUsage: false,
        paymentType: 'ADVANCE_COMMITMENT',
        rollover: {},
        usageAlerts: {},
        charges: [{ chargePeriod, amount: override.amountMinor, tiers: [], advanced: {} }],
      },
    ],
  };
}

export interface ResolvedPurchase {
  product: Selectable<ProductsTable>;
  plan: Selectable<PlansTable>;
  version: Selectable<PlanVersionsTable>;
  priceId: string;
  price: StoredPrice;
  quantities: Record<string, number>;
  quote: Quote;
  /** The customAmount that replaced the plan's charges: a subscription charges it again at renewals. */
  override?: PriceOverride | null;
  /** The promotion the quote applied (it won over the discount, or came alone). */
  promotion?: PurchasePromotion | null;
  /**
   * A renewal that moved the subscription to a newer price (decision 0113): what its period
   * costs in advance at that price, without the usage of the period before (the subscription's
   * new amount, which a later change of plan credits from).
   */
  movedAmountMinor?: number;
}

/**
 * What a caller of a purchase flow (the hosted checkout) adds to its transaction:
 * `paid` runs once the payment is taken and before anything of the purchase is
 * recorded (so `checkout.completed` precedes `subscription.created` and the order's
 * events); `recorded` runs once everything is written, with the ids.
 */
export interface PurchaseHooks {
  paid?(tx: Tx, paid: { customer: CustomerRow; purchase: ResolvedPurchase; now: Date }): Promise<void>;
  recorded?(tx: Tx, ids: { subscriptionId: string | null; orderId: string; invoiceId: string }): Promise<void>;
}

/** What a purchase flow accepts beyond its API body: a checkout's customAmount and discount. */
export type PurchaseExtras = Pick<PurchaseInput, 'priceOverride' | 'discount' | 'promotion'>;

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
  /** Where its periods are counted from; by default the trial's end, else the period's start. */
  anchor?: Date | null;
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
    billing_anchor: start.anchor ?? start.trialEnd ?? start.periodStart ?? start.now,
    payment_method_id: start.paymentMethodId,
    custom_amount_minor: purchase.override?.amountMinor ?? null,
    custom_tax_behavior: purchase.override?.taxBehavior ?? null,
    promotion_id: purchase.promotion?.id ?? null,
    promotion_percent: purchase.promotion?.percent ?? null,
    created_at: start.now,
    modified_at: start.now,
  };
}

/** The customer, locked for the rest of the transaction: money operations on one customer run one at a time. */
export async function lockCustomer(tx: Tx, environmentId: string, customerId: string): Promise<CustomerRow> {
  const customer = await lockCustomerRow(tx, environmentId, customerId);
  if (!customer || customer.archived_at) throw customerMissing();
  return customer;
}

/** The customer of a subscription, locked as lockCustomer locks it, in one query; undefined: no such subscription. */
export async function lockCustomerOfSubscription(tx: Tx, environmentId: string, subscriptionId: string): Promise<CustomerRow | undefined> {
  const customer = await lockCustomerRowOfSubscription(tx, environmentId, subscriptionId);
  if (customer?.archived_at) throw customerMissing();
  return customer;
}

export async function assertNotBlocked(tx: Tx, organizationId: string): Promise<void> {
  const org = await organizationBlock(tx, organizationId);
  if (org?.blocked_at) {
    throw organizationBlocked(org.blocked_reason);
  }
}

/** Which currency a purchase is in: the customer's (fixed by its first purchase), else the one asked for, else the product's. */
export function purchaseCurrency(customer: CustomerRow, requested: string | null | undefined, productCurrency: string | null): string {
  const asked = requested ? requested.trim().toUpperCase() : null;
  if (asked && !isCurrency(asked)) throw invalidCurrencyCode(requested);
  if (customer.currency && asked && asked !== customer.currency) {
    throw currencyMismatch(asked, customer.currency);
  }
  return customer.currency ?? asked ?? productCurrency ?? 'USD';
}

/**
 * What the customer buys and what it costs: the plan's published version, its
 * enabled price in the purchase currency, quantities by feature id, and the quote.
 */
export async function resolvePurchase(tx: Tx, scope: PurchaseScope, customer: CustomerRow, input: PurchaseInput): Promise<ResolvedPurchase> {
  const plan = await findPlan(tx, scope.environmentId, input.planIdentifier);
  if (!plan) throw planUnknown(input.planIdentifier);
  if (plan.archived_at) throw planArchived(input.planIdentifier);
  if (plan.published_version === null) {
    throw planNotPublished(input.planIdentifier);
  }
  const version = (await findVersion(tx, plan.id, plan.published_version))!;
  const product = (await findProduct(tx, scope.environmentId, plan.product_id))!;
  if (product.archived_at) throw productOfPlanArchived(input.planIdentifier);

  const currency = purchaseCurrency(customer, input.currencyCode, await settingsCurrency(tx, product.id));
  const priceRow = await enabledPrice(tx, version.id, currency);
  if (!priceRow) {
    throw noPriceInCurrency(input.planIdentifier, currency);
  }
  const listed = toStored(priceRow);
  const price = input.priceOverride ? overriddenPrice(listed, input.chargePeriod, input.priceOverride) : listed;

  const wanted = input.features ?? [];
  const features = await findFeatures(tx, scope.environmentId, wanted.map((f) => f.identifier));
  const quantities: Record<string, number> = {};
  for (const [i, item] of wanted.entries()) {
    const feature = features.find((f) => f.identifier === item.identifier);
    if (!feature) throw featureUnknown(i, item.identifier);
    quantities[feature.id] = item.quantity;
  }
  const country = (customer.billing_address as { country?: string } | null)?.country ?? countryOfIp(input.ipAddress);
  const request: PurchaseRequest = {
    price,
    chargePeriod: input.chargePeriod,
    quantities,
    ...(await taxOf(tx, scope.environmentId, customer, country)),
    planName: version.name,
    featureNames: await featureNamesOf(tx, price),
  };
  const { quote, promotion } = betterOf(request, input.discount ?? null, input.promotion ?? null);
  return { product, plan, version, priceId: priceRow.id, price, quantities, quote, override: input.priceOverride ?? null, promotion };
}

/**
 * The tax of a sale to the customer (tax.compute.ts taxDecision): the seller's registrations
 * are read only for a buyer with an EU VAT id, the one case they change the answer.
 */
async function taxOf(tx: Executor, environmentId: string, customer: Pick<CustomerRow, 'tax_ids'>, country: string | null) {
  const ids = customer.tax_ids ?? [];
  const sellerCountries = ids.some((id) => id.type === 'eu_vat') ? await sellerTaxCountries(tx, environmentId) : [];
  const decision = taxDecision({ buyerCountry: country, buyerTaxIds: ids, sellerCountries });
  return { taxRateBp: decision.rateBp, taxCountry: decision.country, taxReason: decision.reason, buyerTaxId: decision.buyerTaxId };
}

const promotionDiscount = (promotion: PurchasePromotion): Discount => ({ percentOffBp: promotion.percent * 100 });

/**
 * The quote with the discount or the promotion, whichever costs the buyer less (a tie
 * keeps the code the buyer gave); they never stack (decision 0036).
 */
function betterOf(request: PurchaseRequest, discount: PurchaseDiscount | null, promotion: PurchasePromotion | null): { quote: Quote; promotion: PurchasePromotion | null } {
  const withCode = quoteOrRefuse({ ...request, ...(discount ? { discount: discountIn(discount, request.price.currency) } : {}) });
  if (!promotion) return { quote: withCode, promotion: null };
  const withPromotion = quoteOrRefuse({ ...request, discount: promotionDiscount(promotion) });
  return discount && withCode.totalMinor <= withPromotion.totalMinor ? { quote: withCode, promotion: null } : { quote: withPromotion, promotion };
}

/** Display names of the features a price charges for, for its quote's lines. */
async function featureNamesOf(tx: Executor, price: Pick<StoredPrice, 'chargeCatalogPrice'>): Promise<Record<string, string>> {
  const priced = price.chargeCatalogPrice.flatMap((entry) => (entry.feature ? [entry.feature] : []));
  return Object.fromEntries((await findFeaturesById(tx, priced)).map((f) => [f.id, f.name]));
}

function quoteOrRefuse(request: PurchaseRequest): Quote {
  try {
    return quotePurchase(request);
  } catch (error) {
    if (error instanceof PricingError) throw pricingFailed(error.message);
    throw error;
  }
}

/** What a subscription bills for: its own plan version and price, never changed once published. */
export interface SubscribedTerms {
  product_id: string;
  plan_id: string;
  plan_version_id: string;
  price_id: string;
  charge_period: string;
  quantities: Record<string, number>;
  /** A checkout's customAmount, charged again instead of the plan's charges (decision 0036). */
  custom_amount_minor?: number | null;
  custom_tax_behavior?: 'INCLUSIVE' | 'EXCLUSIVE' | null;
  /** The promotion's percentage the subscription was sold at, applied when no discount is carried. */
  promotion_id?: string | null;
  promotion_percent?: number | null;
}

/** The subscription's customAmount as a price override, if it was bought with one. */
function recurringOverride(terms: SubscribedTerms): PriceOverride | null {
  return terms.custom_amount_minor && terms.custom_tax_behavior ? { amountMinor: terms.custom_amount_minor, taxBehavior: terms.custom_tax_behavior } : null;
}

/** What a renewal is priced with, beyond the subscription's terms. */
export interface RenewalPricing {
  /** The pay-as-you-go usage of the period that ended, by feature id. */
  arrears: Record<string, number>;
  /** The catalog rows, when the caller has read them (null: one is missing); else read here. */
  read?: SubscribedRows | null;
  /** A discount the subscription carries to this renewal. */
  discount?: PurchaseDiscount | null;
  /** Only the usage in `arrears`: the last bill of a period that ends early (a change, a cancellation). */
  arrearsOnly?: boolean;
  /**
   * A newer version of the plan published with updatePricing, and its price in the subscription's
   * currency (decision 0113): the period that begins is sold at it, when it prices the subscription's
   * period and quantities; the usage of the period that ended keeps the old rates.
   */
  successor?: Pick<SubscribedRows, 'version' | 'price'>;
}

/**
 * What the next period of a subscription costs: its plan version's price at its
 * quantities (or its successor's, see RenewalPricing), with the pay-as-you-go usage of
 * the period that ended.
 */
export async function resolveRenewal(tx: Executor, customer: CustomerRow, terms: SubscribedTerms, pricing: RenewalPricing): Promise<ResolvedPurchase> {
  const { arrears, read, discount, arrearsOnly = false } = pricing;
  const ids = { environmentId: customer.environment_id, productId: terms.product_id, planId: terms.plan_id, versionId: terms.plan_version_id, priceId: terms.price_id };
  const rows = read === undefined ? await subscribedRows(tx, ids) : (read ?? undefined);
  if (!rows) throw new Error(`the catalog rows of a subscription are missing (price ${terms.price_id})`);
  const override = recurringOverride(terms);
  const sold = toStored(rows.price);
  const moved = movedTo(pricing.successor, terms, override, arrearsOnly);
  const { plan, product } = rows;
  const { version, price: priceRow } = moved ?? rows;
  const price = override ? overriddenPrice(sold, terms.charge_period, override) : moved ? toStored(moved.price) : sold;
  const country = (customer.billing_address as { country?: string } | null)?.country ?? null;
  const promotion = !discount && terms.promotion_id && terms.promotion_percent ? { id: terms.promotion_id, percent: terms.promotion_percent } : null;
  const request: PurchaseRequest = {
    price,
    chargePeriod: terms.charge_period,
    quantities: terms.quantities,
    arrears,
    arrearsOnly,
    ...(moved ? { arrearsPrice: sold } : {}),
    ...(await taxOf(tx, customer.environment_id, customer, country)),
    planName: version.name,
    featureNames: await featureNamesOf(tx, moved ? { chargeCatalogPrice: [...price.chargeCatalogPrice, ...sold.chargeCatalogPrice] } : price),
    ...(discount ? { discount: discountIn(discount, price.currency) } : {}),
    ...(promotion ? { discount: promotionDiscount(promotion) } : {}),
  };
  const quote = quoteOrRefuse(request);
  const resolved = { product, plan, version, priceId: priceRow.id, price, quantities: terms.quantities, quote, override, promotion };
  return moved ? { ...resolved, movedAmountMinor: quoteOrRefuse({ ...request, arrears: {} }).totalMinor } : resolved;
}

/** The successor a renewal moves to: none for a last bill, a custom amount, or a price that cannot bill the subscription's period. */
function movedTo(successor: RenewalPricing['successor'], terms: SubscribedTerms, override: PriceOverride | null, arrearsOnly: boolean) {
  if (!successor || arrearsOnly || override) return undefined;
  return pricesPeriod(toStored(successor.price), terms.charge_period, terms.quantities) ? successor : undefined;
}
