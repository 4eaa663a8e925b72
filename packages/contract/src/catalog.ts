import { Type, type Static } from 'typebox';
import { INT4_MAX, Metadata, NullableString, Paginated, PageQuery, Timestamp } from './common.js';

export const TAX_CODES = [
  'saas',
  'saas_business',
  'software',
  'videocontent',
  'informationservice',
  'ebook',
  'digitalgraphic',
  'videogame',
  'eservice',
  'training',
] as const;
export const FEATURE_TYPES = ['BOOLEAN', 'CUSTOMIZABLE', 'METER'] as const;
export const FEATURE_SUBTYPES = ['PRE_AGGREGATED_USAGE', 'RAW_EVENTS'] as const;
export const PRICE_TYPES = ['FREE', 'PAID', 'CUSTOM'] as const;
export const PRICE_MODELS = ['FLAT', 'PACKAGE', 'TIERED', 'VOLUME', 'STAIRSTEP'] as const;
export const PAYMENT_TYPES = ['ADVANCE_COMMITMENT', 'PAY_AS_YOU_GO'] as const;
export const TAX_BEHAVIORS = ['INCLUSIVE', 'EXCLUSIVE', 'UNSPECIFIED'] as const;
export const RESETS = ['NEVER', 'EVERY_DAY', 'EVERY_28_DAYS', 'EVERY_MONTH', 'EVERY_QUARTER', 'EVERY_YEAR'] as const;
export const RESET_TIMES = ['BEGINNING_OF_PERIOD', 'SUBSCRIPTION_START'] as const;
export const CHARGE_PERIODS = [
  'ONE_TIME',
  'DAILY',
  'WEEKLY',
  'TWENTY_EIGHT_DAYS',
  'MONTHLY',
  'QUARTERLY',
  'THREE_MONTHS',
  'SIX_MONTHS',
  'YEARLY',
] as const;
export const THRESHOLD_TYPES = ['PERCENTAGE', 'BALANCE'] as const;
export const DURATION_UNITS = ['DAY', 'MONTH', 'YEAR'] as const;

export const IDENTIFIER_PATTERN = '^[a-z0-9][a-z0-9-_]*$';
/** At least one character that is not white space. */
export const NOT_BLANK = '\\S';
const Identifier = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: IDENTIFIER_PATTERN,
  description: 'Lower-case slug: letters, digits, - and _, starting with a letter or digit',
});

// Products

export const ProductImage = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.Union([Type.String(), Type.Null()]),
    image: Type.String({ format: 'uri', description: 'Public URL of the image' }),
    ordering: Type.Integer(),
    thumbnail: Type.Boolean(),
    enabled: Type.Boolean(),
    size: Type.Integer({ minimum: 0, description: 'Billow extension: the stored size in bytes' }),
    contentType: Type.String({ description: 'Billow extension: the MIME type it was uploaded with' }),
  },
  { title: 'ProductImage' },
);
export type ProductImage = Static<typeof ProductImage>;

export const ProductImageUpdate = Type.Object(
  {
    name: Type.Optional(NullableString({ maxLength: 255 })),
    ordering: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    thumbnail: Type.Optional(Type.Boolean({ description: 'One thumbnail per product: setting it clears the others' })),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'ProductImageUpdate' },
);
export type ProductImageUpdate = Static<typeof ProductImageUpdate>;

export const ProductFile = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    file: Type.String({ format: 'uri', description: 'Where the file is downloaded from (the same as downloadUrl)' }),
    ordering: Type.Integer(),
    enabled: Type.Boolean(),
    downloadUrl: Type.String({ format: 'uri', description: 'Needs no key: redirects to a link that downloads the file for a few minutes' }),
    size: Type.Integer({ minimum: 0, description: 'Billow extension: the stored size in bytes' }),
    contentType: Type.String({ description: 'Billow extension: the MIME type it was uploaded with' }),
  },
  { title: 'ProductFile' },
);
export type ProductFile = Static<typeof ProductFile>;

/** What may change of a product's or a plan's downloadable file: never its bytes. */
const fileUpdateFields = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: NOT_BLANK })),
  ordering: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  enabled: Type.Optional(Type.Boolean()),
};

export const ProductFileUpdate = Type.Object(fileUpdateFields, { additionalProperties: false, title: 'ProductFileUpdate' });
export type ProductFileUpdate = Static<typeof ProductFileUpdate>;

export const Product = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    identifier: Type.String(),
    name: Type.String(),
    description: Type.String(),
    taxCode: Type.String(),
    createdBy: Type.Union([Type.String(), Type.Null()]),
    isArchived: Type.Boolean(),
    images: Type.Array(ProductImage),
    files: Type.Array(ProductFile, { description: 'Downloadable files, attached with fileKeys on PATCH' }),
    createdOn: Timestamp,
    modifiedOn: Timestamp,
  },
  { title: 'Product' },
);
export type Product = Static<typeof Product>;

export const ProductWithPlans = Type.Object(
  {
    ...Product.properties,
    plans: Type.Array(Type.String(), { description: 'Identifiers of its published, non-archived plans' }),
  },
  { title: 'ProductWithPlans' },
);
export type ProductWithPlans = Static<typeof ProductWithPlans>;

const imageKeys = Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), {
  maxItems: 10,
  description: 'fileKey values from POST /media/; a product holds at most 10 images',
});

export const ProductCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, pattern: NOT_BLANK }),
    taxCode: Type.Enum([...TAX_CODES]),
    identifier: Type.Optional(Identifier),
    description: Type.Optional(NullableString({ maxLength: 5000 })),
    imageKeys: Type.Optional(imageKeys),
  },
  { additionalProperties: false, title: 'ProductCreate' },
);
export type ProductCreate = Static<typeof ProductCreate>;

export const ProductUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: NOT_BLANK })),
    description: Type.Optional(NullableString({ maxLength: 5000 })),
    taxCode: Type.Optional(Type.Enum([...TAX_CODES])),
    imageKeys: Type.Optional(imageKeys),
    fileKeys: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), {
        maxItems: 10,
        description: "fileKey values from POST /media/, appended to the product's downloadable files",
      }),
    ),
  },
  { additionalProperties: false, title: 'ProductUpdate' },
);
export type ProductUpdate = Static<typeof ProductUpdate>;

export const ProductSettings = Type.Object(
  {
    vpn: Type.Boolean(),
    tor: Type.Boolean(),
    proxy: Type.Boolean(),
    currency: Type.Union([Type.String(), Type.Null()]),
    productUrl: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'ProductSettings' },
);
export type ProductSettings = Static<typeof ProductSettings>;

export const ProductSettingsUpdate = Type.Object(
  {
    vpn: Type.Optional(Type.Boolean()),
    tor: Type.Optional(Type.Boolean()),
    proxy: Type.Optional(Type.Boolean()),
    currency: Type.Optional(NullableString({ description: 'ISO 4217 code' })),
    productUrl: Type.Optional(NullableString({ format: 'uri', pattern: '^https?://', maxLength: 2048 })),
  },
  { additionalProperties: false, title: 'ProductSettingsUpdate' },
);
export type ProductSettingsUpdate = Static<typeof ProductSettingsUpdate>;

export const CatalogListQuery = Type.Object({
  ...PageQuery.properties,
  search: Type.Optional(Type.String({ maxLength: 200 })),
});
export type CatalogListQuery = Static<typeof CatalogListQuery>;

export const ProductList = Paginated(Product, 'ProductList');

// Features

const Units = Type.Object(
  { singular: Type.String({ minLength: 1, maxLength: 50 }), plural: Type.String({ minLength: 1, maxLength: 50 }) },
  { additionalProperties: false },
);

export const FeatureDetails = Type.Object(
  {
    featureSubType: Type.Optional(Type.Enum([...FEATURE_SUBTYPES])),
    units: Type.Optional(Units),
    customerUnit: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false, title: 'FeatureDetails' },
);

export const Meter = Type.Object(
  {
    aggregation: Type.Optional(
      Type.Object(
        {
          function: Type.Enum(['COUNT', 'SUM', 'MAX', 'MIN', 'UNIQUE_COUNT', 'LATEST']),
          field: Type.Optional(NullableString({ maxLength: 200 })),
        },
        { additionalProperties: false },
      ),
    ),
    filters: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 50 })),
  },
  { additionalProperties: false, title: 'Meter' },
);

export const Feature = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    identifier: Type.String(),
    name: Type.String(),
    description: Type.String(),
    featureType: Type.Enum([...FEATURE_TYPES]),
    featureDetails: Type.Record(Type.String(), Type.Unknown()),
    meter: Type.Record(Type.String(), Type.Unknown()),
    details: Type.Record(Type.String(), Type.Unknown()),
    metadata: Metadata,
    isArchived: Type.Boolean(),
    createdOn: Timestamp,
    modifiedOn: Timestamp,
  },
  { title: 'Feature' },
);
export type Feature = Static<typeof Feature>;

export const FeatureCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, pattern: NOT_BLANK }),
    featureType: Type.Enum([...FEATURE_TYPES]),
    identifier: Type.Optional(Identifier),
    description: Type.Optional(NullableString({ maxLength: 5000 })),
    featureDetails: Type.Optional(FeatureDetails),
    meter: Type.Optional(Meter),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, title: 'FeatureCreate' },
);
export type FeatureCreate = Static<typeof FeatureCreate>;

export const FeatureUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: NOT_BLANK })),
    description: Type.Optional(NullableString({ maxLength: 5000 })),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    title: 'FeatureUpdate',
    description: 'What a feature shows: its identifier, type and meter never change (grant a new feature for that). Metadata given replaces the whole map.',
  },
);
export type FeatureUpdate = Static<typeof FeatureUpdate>;

export const FeatureList = Paginated(Feature, 'FeatureList');

// Plans

export const LicenseConfig = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    activationLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
    activationLimitEnabled: Type.Optional(Type.Boolean()),
    durationUnit: Type.Optional(Type.Enum([...DURATION_UNITS])),
    durationValue: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    hasExpiry: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'LicenseConfig' },
);
export type LicenseConfig = Static<typeof LicenseConfig>;

export const PlanLink = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 255, pattern: NOT_BLANK }), url: Type.String({ format: 'uri', maxLength: 2048 }) },
  { additionalProperties: false, title: 'PlanLink' },
);
export type PlanLink = Static<typeof PlanLink>;

export const PlanFile = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    file: Type.String({ format: 'uri', description: 'Where the file is downloaded from (the same as downloadUrl)' }),
    ordering: Type.Integer(),
    enabled: Type.Boolean(),
    downloadUrl: Type.String({ format: 'uri' }),
    size: Type.Integer({ minimum: 0, description: 'Billow extension: the stored size in bytes' }),
    contentType: Type.String({ description: 'Billow extension: the MIME type it was uploaded with' }),
  },
  { title: 'PlanFile' },
);
export type PlanFile = Static<typeof PlanFile>;

export const PlanFileUpdate = Type.Object(fileUpdateFields, { additionalProperties: false, title: 'PlanFileUpdate' });
export type PlanFileUpdate = Static<typeof PlanFileUpdate>;

export const Plan = Type.Object(
  {
    identifier: Type.String(),
    name: Type.String(),
    description: Type.String(),
    product: Type.String({ format: 'uuid' }),
    metadata: Metadata,
    version: Type.Integer(),
    isLatest: Type.Boolean({ description: 'True only for the version on sale (the published one)' }),
    status: Type.Enum(['draft', 'published', 'superseded'], {
      description: 'draft: not yet on sale; published: on sale; superseded: was on sale, replaced by a later version',
    }),
    isArchived: Type.Boolean(),
    isVisible: Type.Boolean(),
    isImported: Type.Boolean(),
    countries: Type.Array(Type.String()),
    details: Type.Record(Type.String(), Type.Unknown()),
    license: Type.Union([LicenseConfig, Type.Null()]),
    links: Type.Array(PlanLink),
    files: Type.Array(PlanFile),
    ordering: Type.Integer(),
    createdOn: Timestamp,
    modifiedOn: Timestamp,
  },
  { title: 'Plan' },
);
export type Plan = Static<typeof Plan>;

const fileKeys = Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), {
  maxItems: 20,
  description: 'fileKey values from POST /media/ to attach as downloadable files (appended)',
});

/** What a plan's content may say, on create and on update alike. */
const planContent = {
  description: Type.Optional(NullableString({ maxLength: 5000 })),
  metadata: Type.Optional(Metadata),
  isVisible: Type.Optional(Type.Boolean()),
  license: Type.Optional(Type.Union([LicenseConfig, Type.Null()])),
  links: Type.Optional(Type.Array(PlanLink, { maxItems: 20 })),
  fileKeys: Type.Optional(fileKeys),
  ordering: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
};
const planName = Type.String({ minLength: 1, maxLength: 255, pattern: NOT_BLANK });

export const PlanCreate = Type.Object(
  {
    name: planName,
    product: Type.String({ minLength: 1, description: 'The product id (or its identifier)' }),
    identifier: Type.Optional(Identifier),
    ...planContent,
  },
  { additionalProperties: false, title: 'PlanCreate' },
);
export type PlanCreate = Static<typeof PlanCreate>;

export const PlanUpdate = Type.Object(
  { name: Type.Optional(planName), ...planContent },
  { additionalProperties: false, title: 'PlanUpdate' },
);
export type PlanUpdate = Static<typeof PlanUpdate>;

export const PlanPublish = Type.Object(
  {
    updateFeatures: Type.Optional(Type.Boolean()),
    updatePricing: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'PlanPublish' },
);
export type PlanPublish = Static<typeof PlanPublish>;

export const PlanPublished = Type.Object(
  { status: Type.Literal('published'), identifier: Type.String(), version: Type.Integer() },
  { title: 'PlanPublished' },
);

export const PlanPath = Type.Object({ identifier: Type.String({ minLength: 1, maxLength: 200 }) });
export const VersionQuery = Type.Object({
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: INT4_MAX, description: 'A plan version; the newest when omitted' })),
});
export const VersionPageQuery = Type.Object({ ...PageQuery.properties, ...VersionQuery.properties });

export const PlanList = Paginated(Plan, 'PlanList');

// Prices

const Amount = Type.Number({
  minimum: 0,
  description: "In the currency's major unit, with no more decimals than the currency has (19.99 USD)",
});

export const Tier = Type.Object(
  {
    upTo: Type.Union([Type.Integer({ minimum: 1 }), Type.Literal('inf')], {
      description: 'Upper bound of the tier; "inf" for the last one',
    }),
    flatAmount: Type.Optional(Type.Union([Amount, Type.Null()])),
    unitAmount: Type.Optional(Type.Union([Amount, Type.Null()])),
  },
  { additionalProperties: false, title: 'Tier' },
);

export const PriceData = Type.Object(
  {
    amount: Type.Optional(Type.Union([Amount, Type.Null()])),
    blockSize: Type.Optional(Type.Integer({ minimum: 1, description: 'PACKAGE: units per block' })),
    currency: Type.Optional(Type.String()),
  },
  { additionalProperties: false, title: 'PriceData' },
);

export const ChargeAdvanced = Type.Object(
  {
    minQuantity: Type.Optional(Type.Integer({ minimum: 0 })),
    maxQuantity: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

export const Charge = Type.Object(
  {
    chargePeriod: Type.Enum([...CHARGE_PERIODS]),
    priceData: Type.Optional(PriceData),
    tiers: Type.Optional(Type.Array(Tier, { maxItems: 50 })),
    advanced: Type.Optional(ChargeAdvanced),
  },
  { additionalProperties: false, title: 'Charge' },
);

export const Rollover = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    percentage: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    limit: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
  },
  { additionalProperties: false, title: 'Rollover' },
);

export const UsageAlerts = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    thresholds: Type.Optional(Type.Array(Type.Number({ minimum: 0 }), { maxItems: 10 })),
    thresholdType: Type.Optional(Type.Enum([...THRESHOLD_TYPES])),
  },
  { additionalProperties: false, title: 'UsageAlerts' },
);

export const ChargeCatalogPrice = Type.Object(
  {
    feature: Type.Optional(
      Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
        description: 'The feature this charge meters (its id or identifier); null for the base charge',
      }),
    ),
    priceModel: Type.Optional(Type.Enum([...PRICE_MODELS])),
    reset: Type.Optional(Type.Union([Type.Enum([...RESETS]), Type.Null()])),
    resetTime: Type.Optional(Type.Union([Type.Enum([...RESET_TIMES]), Type.Null()])),
    hasUnlimitedUsage: Type.Optional(Type.Boolean()),
    paymentType: Type.Optional(Type.Enum([...PAYMENT_TYPES])),
    rollover: Type.Optional(Rollover),
    usageAlerts: Type.Optional(UsageAlerts),
    charges: Type.Array(Charge, { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false, title: 'ChargeCatalogPrice' },
);

export const PlanPriceInput = Type.Object(
  {
    priceType: Type.Enum([...PRICE_TYPES]),
    currency: Type.Optional(Type.String({ description: 'ISO 4217 code; the product currency (or USD) when omitted' })),
    freeTrial: Type.Optional(Type.Boolean()),
    trialPeriod: Type.Optional(Type.Integer({ minimum: 0, maximum: 730, description: 'Trial length in days' })),
    enabled: Type.Optional(Type.Boolean()),
    taxBehavior: Type.Optional(Type.Enum([...TAX_BEHAVIORS])),
    chargeCatalogPrice: Type.Optional(Type.Array(ChargeCatalogPrice, { maxItems: 50 })),
  },
  { additionalProperties: false, title: 'PlanPriceInput' },
);
export type PlanPriceInput = Static<typeof PlanPriceInput>;

/** Billow extension (decision 0086): the price of one currency, the currency being in the path. */
const { currency: _currency, ...currencyPriceFields } = PlanPriceInput.properties;
export const PlanCurrencyPriceInput = Type.Object(currencyPriceFields, { additionalProperties: false, title: 'PlanCurrencyPriceInput' });
export type PlanCurrencyPriceInput = Static<typeof PlanCurrencyPriceInput>;
export const PlanCurrencyPath = Type.Object({ ...PlanPath.properties, currency: Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217 code, any case' }) });

export const PlanPricesBulk = Type.Object(
  { prices: Type.Array(PlanPriceInput, { maxItems: 50 }) },
  { additionalProperties: false, title: 'PlanPricesBulk' },
);
export type PlanPricesBulk = Static<typeof PlanPricesBulk>;

const OutTier = Type.Object({
  upTo: Type.Union([Type.Integer(), Type.Literal('inf')]),
  flatAmount: Type.Union([Type.Number(), Type.Null()]),
  unitAmount: Type.Union([Type.Number(), Type.Null()]),
});
const OutCharge = Type.Object({
  chargePeriod: Type.String(),
  priceData: Type.Object({
    amount: Type.Union([Type.Number(), Type.Null()]),
    blockSize: Type.Optional(Type.Integer()),
    currency: Type.String(),
  }),
  tiers: Type.Array(OutTier),
  advanced: Type.Object({ minQuantity: Type.Optional(Type.Integer()), maxQuantity: Type.Optional(Type.Integer()) }),
});
const OutChargeCatalogPrice = Type.Object({
  feature: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  priceModel: Type.String(),
  reset: Type.Union([Type.String(), Type.Null()]),
  resetTime: Type.Union([Type.String(), Type.Null()]),
  hasUnlimitedUsage: Type.Boolean(),
  paymentType: Type.String(),
  rollover: Rollover,
  usageAlerts: UsageAlerts,
  charges: Type.Array(OutCharge),
});

export const PlanPrice = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    version: Type.Integer(),
    priceType: Type.String(),
    currency: Type.String(),
    freeTrial: Type.Boolean(),
    trialPeriod: Type.Integer(),
    enabled: Type.Boolean(),
    taxBehavior: Type.String(),
    chargeCatalogPrice: Type.Array(OutChargeCatalogPrice),
  },
  { title: 'PlanPrice' },
);
export type PlanPrice = Static<typeof PlanPrice>;

export const PlanPricesResult = Type.Object({ prices: Type.Array(PlanPrice) }, { title: 'PlanPricesResult' });
export const PlanPriceList = Paginated(PlanPrice, 'PlanPriceList');

// Entitlements

export const EntitlementDetailsInput = Type.Object(
  {
    value: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Boolean(), Type.Null()])),
    hasUnlimitedUsage: Type.Optional(Type.Boolean()),
    reset: Type.Optional(Type.Union([Type.Enum([...RESETS]), Type.Null()])),
    resetTime: Type.Optional(Type.Union([Type.Enum([...RESET_TIMES]), Type.Null()])),
    rollover: Type.Optional(Rollover),
    usageAlerts: Type.Optional(UsageAlerts),
    hardLimit: Type.Optional(Type.Boolean()),
    isInherited: Type.Optional(Type.Boolean()),
    isValueOverridden: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'EntitlementDetailsInput' },
);
export type EntitlementDetailsInput = Static<typeof EntitlementDetailsInput>;

export const EntitlementDetails = Type.Object(
  {
    value: Type.Union([Type.Number(), Type.Boolean(), Type.Null()]),
    hasUnlimitedUsage: Type.Boolean(),
    reset: Type.Union([Type.String(), Type.Null()]),
    resetTime: Type.Union([Type.String(), Type.Null()]),
    rollover: Type.Record(Type.String(), Type.Unknown()),
    usageAlerts: Type.Record(Type.String(), Type.Unknown()),
    hardLimit: Type.Boolean(),
    isInherited: Type.Boolean(),
    isValueOverridden: Type.Boolean(),
  },
  { title: 'EntitlementDetails' },
);
export type EntitlementDetails = Static<typeof EntitlementDetails>;

export const PlanEntitlement = Type.Object(
  { feature: Feature, details: EntitlementDetails },
  { title: 'PlanEntitlement' },
);
export type PlanEntitlement = Static<typeof PlanEntitlement>;

export const PlanEntitlementsCreate = Type.Object(
  {
    planEntitlements: Type.Array(
      Type.Object(
        {
          feature: Type.String({ minLength: 1, description: 'The feature id (or its identifier)' }),
          details: Type.Optional(EntitlementDetailsInput),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  { additionalProperties: false, title: 'PlanEntitlementsCreate' },
);
export type PlanEntitlementsCreate = Static<typeof PlanEntitlementsCreate>;

export const PlanEntitlementPatch = Type.Object(
  { details: EntitlementDetailsInput },
  { additionalProperties: false, title: 'PlanEntitlementPatch' },
);
export type PlanEntitlementPatch = Static<typeof PlanEntitlementPatch>;

export const PlanEntitlementList = Paginated(PlanEntitlement, 'PlanEntitlementList');
