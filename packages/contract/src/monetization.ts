import { Type, type Static } from 'typebox';
import { EntitlementDetails, FEATURE_TYPES } from './catalog.js';
import { Metadata } from './common.js';

// The product offering: the public read model a pricing page is drawn from (GET /monetization/product-offering/{product_id}/).

export const ProductOfferingPath = Type.Object({
  product_id: Type.String({ minLength: 1, maxLength: 200, description: 'The product id (UUID) or its identifier' }),
});
export type ProductOfferingPath = Static<typeof ProductOfferingPath>;

export const ProductOfferingQuery = Type.Object({
  customer_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: "Your customer's id: adds `isCustomerExists` and the customer's subscription state",
    }),
  ),
  plans_enabled: Type.Optional(
    Type.String({
      maxLength: 5000,
      description: 'Comma-separated plan identifiers to include (others are left out); unknown identifiers are ignored',
    }),
  ),
  ip_address: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        "The buyer's IP address, for location-based pricing: its country's currency when a plan sells in it, and its promotions. Honoured only with a server key (checked to be an IPv4 or IPv6 address); a client key's request is located by where it comes from.",
    }),
  ),
  country: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 2,
      description:
        'Billow extension: an ISO 3166-1 alpha-2 country to price the offering for instead of locating an address (its currency and promotions), as the dashboard previews it. Server keys only (403 with a client key); not together with ip_address.',
    }),
  ),
  currency_code: Type.Optional(
    Type.String({
      maxLength: 10,
      description: "ISO 4217 code of the currency to show prices in; the product's currency when omitted",
    }),
  ),
});
export type ProductOfferingQuery = Static<typeof ProductOfferingQuery>;

const Amount = Type.Union([Type.Number(), Type.Null()]);

export const OfferingTier = Type.Object(
  {
    upTo: Type.Union([Type.Integer(), Type.Literal('inf')]),
    flatAmount: Amount,
    unitAmount: Amount,
  },
  { title: 'OfferingTier' },
);

export const OfferingCharge = Type.Object(
  {
    id: Type.String({
      format: 'uuid',
      description: 'Stable id of this charge, derived from the price id, the feature and the charge period',
    }),
    chargePeriod: Type.String(),
    tiers: Type.Array(OfferingTier),
    priceData: Type.Object({
      amount: Type.Union([Type.Number(), Type.Null()], {
        description: "In the currency's major unit, exactly as set (19.99); null for tiered models",
      }),
      blockSize: Type.Optional(Type.Integer()),
      currency: Type.String(),
    }),
    details: Type.Record(Type.String(), Type.Unknown()),
    advanced: Type.Object({ minQuantity: Type.Optional(Type.Integer()), maxQuantity: Type.Optional(Type.Integer()) }),
    featureQuantityPrice: Type.Union([Type.Number(), Type.Null()], {
      description: 'The price per period of one unit of the plan or the feature (of one block for PACKAGE); null for tiered models',
    }),
  },
  { title: 'OfferingCharge' },
);
export type OfferingCharge = Static<typeof OfferingCharge>;

export const OfferingPrice = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    priceType: Type.String({ description: 'FREE, PAID or CUSTOM (CUSTOM: "contact us"; the amount is set at checkout)' }),
    freeTrial: Type.Boolean(),
    trialPeriod: Type.Integer({ description: 'Trial length in days' }),
    currency: Type.String(),
    enabled: Type.Boolean(),
    taxBehavior: Type.String(),
    charges: Type.Array(OfferingCharge, {
      description: "The plan's base charges, one per charge period; usage charges are on the plan's `features`",
    }),
  },
  { title: 'OfferingPrice' },
);
export type OfferingPrice = Static<typeof OfferingPrice>;

export const OfferingFeature = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    identifier: Type.String(),
    name: Type.String(),
    description: Type.String(),
    featureType: Type.Enum([...FEATURE_TYPES]),
    featureDetails: Type.Record(Type.String(), Type.Unknown(), { description: 'METER units ({singular, plural}) live here' }),
    metadata: Metadata,
    isArchived: Type.Boolean(),
    enabled: Type.Boolean(),
    displayName: Type.String(),
    displayDescription: Type.String(),
    displayTooltipDescription: Type.Boolean(),
    details: Type.Union([EntitlementDetails, Type.Null()], {
      description: 'What the plan grants of this feature; null for a feature that is priced but not granted',
    }),
    value: Type.Union([Type.Number(), Type.Boolean(), Type.Null()]),
    hasUnlimitedUsage: Type.Boolean(),
    hardLimit: Type.Union([Type.Boolean(), Type.Null()]),
    reset: Type.Union([Type.String(), Type.Null()]),
    resetTime: Type.Union([Type.String(), Type.Null()]),
    priceModel: Type.Union([Type.String(), Type.Null()], { description: 'How usage of the feature is priced; null when it is not' }),
    paymentType: Type.Union([Type.String(), Type.Null()]),
    charges: Type.Union([Type.Array(OfferingCharge), Type.Null()], {
      description: "The feature's usage charges in the plan's price; null when it is not priced",
    }),
  },
  { title: 'OfferingFeature' },
);
export type OfferingFeature = Static<typeof OfferingFeature>;

export const OfferingPlan = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    identifier: Type.String(),
    version: Type.Integer({ description: 'The published version shown' }),
    details: Type.Record(Type.String(), Type.Unknown()),
    isVisible: Type.Boolean(),
    metadata: Metadata,
    basePlan: Type.Union([Type.String(), Type.Null()]),
    price: OfferingPrice,
    originalPrice: Type.Record(Type.String(), Type.Number(), {
      description: 'The base amount per charge period, e.g. {"MONTHLY": 19.99, "YEARLY": 199}',
    }),
    features: Type.Array(OfferingFeature),
    shouldHighlight: Type.Boolean(),
    enabled: Type.Boolean(),
    displayName: Type.String(),
    displayDescription: Type.String(),
    includes: Type.String(),
  },
  { title: 'OfferingPlan' },
);
export type OfferingPlan = Static<typeof OfferingPlan>;

export const BillingPeriod = Type.Object(
  {
    chargePeriod: Type.String(),
    enabled: Type.Boolean(),
    displayName: Type.String(),
    promoCaption: Type.String(),
    defaultSelected: Type.Boolean(),
  },
  { title: 'BillingPeriod' },
);
export type BillingPeriod = Static<typeof BillingPeriod>;

export const OfferingSubscription = Type.Object(
  {
    hasPreviousSubscription: Type.Boolean(),
    planIdentifier: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    subscriptionId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
    chargePeriod: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { title: 'OfferingSubscription' },
);
export type OfferingSubscription = Static<typeof OfferingSubscription>;

export const ProductOffering = Type.Object(
  {
    organizationId: Type.String({ description: "The seller's organization id" }),
    countryCode: Type.Union([Type.String(), Type.Null()], {
      description: "ISO 3166-1 alpha-2; from the customer's billing address, else null",
    }),
    pricingLocale: Type.String({ description: 'BCP 47 locale to format prices with, e.g. en-US' }),
    currencyCode: Type.String({ description: 'ISO 4217 code of the currency the prices are shown in' }),
    currencySymbol: Type.String(),
    currencyConversionRate: Type.Number({ description: 'Always 1: each currency has its own prices, nothing is converted' }),
    baseCurrencyCode: Type.String({ description: "The product's currency" }),
    baseCurrencySymbol: Type.String(),
    plans: Type.Array(OfferingPlan),
    subscription: OfferingSubscription,
    isCustomerExists: Type.Boolean(),
    billingPeriods: Type.Array(BillingPeriod),
  },
  { title: 'ProductOffering' },
);
export type ProductOffering = Static<typeof ProductOffering>;
