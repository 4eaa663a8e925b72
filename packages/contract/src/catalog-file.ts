/**
 * The catalog file of `billow catalog pull|diff|apply` (issue 31, decision 0109): an
 * environment's catalog as code. Every entry is keyed by the catalog's own identifiers
 * (product, feature and plan identifiers, discount codes, promotion names), never by ids,
 * so one file applies to any environment. The shapes are the API's inputs, with
 * identifiers where the API takes ids, so what the API documents holds here too.
 * `catalogFileJsonSchema()` is the JSON Schema editors check the file against.
 */
import { Type, type Static } from 'typebox';
import { Metadata, NullableString } from './common.js';
import {
  ChargeCatalogPrice,
  EntitlementDetailsInput,
  FeatureCreate,
  IDENTIFIER_PATTERN,
  LicenseConfig,
  PlanLink,
  PlanPriceInput,
  ProductCreate,
  ProductSettingsUpdate,
} from './catalog.js';
import { DiscountCreate } from './discounts.js';
import { PromotionCreate } from './promotions.js';

const Key = (what: string) =>
  Type.String({ minLength: 1, maxLength: 100, pattern: IDENTIFIER_PATTERN, description: `The ${what}'s identifier: its key in every environment` });
const Ref = (what: string) => Type.String({ minLength: 1, maxLength: 100, description: `A ${what} identifier of this file` });

const { identifier: _productIdentifier, imageKeys: _imageKeys, ...productFields } = ProductCreate.properties;
export const CatalogFileProduct = Type.Object(
  { identifier: Key('product'), ...productFields, settings: Type.Optional(ProductSettingsUpdate) },
  { additionalProperties: false, title: 'CatalogFileProduct' },
);
export type CatalogFileProduct = Static<typeof CatalogFileProduct>;

const { identifier: _featureIdentifier, ...featureFields } = FeatureCreate.properties;
export const CatalogFileFeature = Type.Object(
  { identifier: Key('feature'), ...featureFields },
  { additionalProperties: false, title: 'CatalogFileFeature' },
);
export type CatalogFileFeature = Static<typeof CatalogFileFeature>;

const { feature: _feature, ...chargeFields } = ChargeCatalogPrice.properties;
export const CatalogFileCharge = Type.Object(
  {
    feature: Type.Optional(Type.Union([Ref('feature'), Type.Null()], { description: 'The feature this charge meters; null or left out for the base charge' })),
    ...chargeFields,
  },
  { additionalProperties: false, title: 'CatalogFileCharge' },
);

const { currency: _currency, chargeCatalogPrice: _charges, ...priceFields } = PlanPriceInput.properties;
export const CatalogFilePrice = Type.Object(
  {
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, upper case: one price per currency' }),
    ...priceFields,
    chargeCatalogPrice: Type.Optional(Type.Array(CatalogFileCharge, { maxItems: 50 })),
  },
  { additionalProperties: false, title: 'CatalogFilePrice' },
);
export type CatalogFilePrice = Static<typeof CatalogFilePrice>;

export const CatalogFileEntitlement = Type.Object(
  { feature: Ref('feature'), ...EntitlementDetailsInput.properties },
  { additionalProperties: false, title: 'CatalogFileEntitlement' },
);
export type CatalogFileEntitlement = Static<typeof CatalogFileEntitlement>;

export const CatalogFilePlan = Type.Object(
  {
    identifier: Key('plan'),
    product: Ref('product'),
    name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
    published: Type.Optional(
      Type.Boolean({ description: 'true (default): on sale; apply publishes a new version when the content differs. false: kept as a draft' }),
    ),
    description: Type.Optional(NullableString({ maxLength: 5000 })),
    metadata: Type.Optional(Metadata),
    isVisible: Type.Optional(Type.Boolean()),
    ordering: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
    license: Type.Optional(Type.Union([LicenseConfig, Type.Null()])),
    links: Type.Optional(Type.Array(PlanLink, { maxItems: 20 })),
    prices: Type.Optional(Type.Array(CatalogFilePrice, { maxItems: 50 })),
    entitlements: Type.Optional(Type.Array(CatalogFileEntitlement, { maxItems: 100 })),
  },
  { additionalProperties: false, title: 'CatalogFilePlan' },
);
export type CatalogFilePlan = Static<typeof CatalogFilePlan>;

const { code: _code, restrictions: _restrictions, ...discountFields } = DiscountCreate.properties;
export const CatalogFileDiscount = Type.Object(
  {
    code: Type.String({ minLength: 3, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$', description: "What the buyer types: the discount's key" }),
    ...discountFields,
    restrictions: Type.Optional(
      Type.Object(
        {
          plans: Type.Optional(Type.Array(Ref('plan'), { maxItems: 100 })),
          products: Type.Optional(Type.Array(Ref('product'), { maxItems: 100 })),
        },
        { additionalProperties: false, description: 'Where the code applies: a listed plan, or any plan of a listed product. Neither: everywhere' },
      ),
    ),
  },
  { additionalProperties: false, title: 'CatalogFileDiscount' },
);
export type CatalogFileDiscount = Static<typeof CatalogFileDiscount>;

const { productId: _productId, planIdentifiers: _plans, name: promotionName, ...promotionFields } = PromotionCreate.properties;
export const CatalogFilePromotion = Type.Object(
  {
    name: Type.String({ ...promotionName, description: "The promotion's name: its key, unique in the file" }),
    product: Ref('product'),
    plans: Type.Optional(Type.Union([Type.Array(Ref('plan'), { maxItems: 100 }), Type.Null()], { description: 'Published plans of the product; left out or null: all of them' })),
    ...promotionFields,
  },
  { additionalProperties: false, title: 'CatalogFilePromotion' },
);
export type CatalogFilePromotion = Static<typeof CatalogFilePromotion>;

export const CATALOG_FILE_VERSION = 1;

export const CatalogFile = Type.Object(
  {
    catalogVersion: Type.Literal(CATALOG_FILE_VERSION, { description: 'The version of this file format' }),
    products: Type.Optional(Type.Array(CatalogFileProduct)),
    features: Type.Optional(Type.Array(CatalogFileFeature)),
    plans: Type.Optional(Type.Array(CatalogFilePlan)),
    discounts: Type.Optional(Type.Array(CatalogFileDiscount)),
    promotions: Type.Optional(Type.Array(CatalogFilePromotion)),
  },
  {
    additionalProperties: false,
    title: 'Billow catalog',
    description: 'Products, features, plans with their prices and entitlements, discounts and promotions of one Billow environment (billow catalog pull|diff|apply)',
  },
);
export type CatalogFile = Static<typeof CatalogFile>;

/** The file's JSON Schema (draft 2020-12), as `billow catalog schema` prints it. */
export function catalogFileJsonSchema(): Record<string, unknown> {
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...(JSON.parse(JSON.stringify(CatalogFile)) as Record<string, unknown>) };
}
