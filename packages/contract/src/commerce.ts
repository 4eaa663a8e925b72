import { Type, type Static } from 'typebox';
import { CappedPaginated, CountQuery, INT4_MAX, ListSort, NullableString, PageQuery, SearchQuery } from './common.js';

export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'superseded',
] as const;
export const CANCELLATION_TYPES = ['IMMEDIATE', 'CURRENT_PERIOD_ENDS', 'SPECIFIC_DATE'] as const;
export const CANCELLATION_FEEDBACK = [
  'TOO_EXPENSIVE',
  'MISSING_FEATURES',
  'SWITCHED_SERVICE',
  'UNUSED',
  'CUSTOMER_SERVICE',
  'LOW_QUALITY',
  'TOO_COMPLEX',
  'OTHER',
] as const;
export const PROBATION_BEHAVIOURS = ['IMMEDIATE_CHARGE', 'NEXT_BILLING_CYCLE', 'PRO_RATA'] as const;

export const FeatureInput = Type.Object(
  {
    identifier: Type.String({ minLength: 1, maxLength: 200, description: 'The feature identifier' }),
    quantity: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
  },
  { additionalProperties: false, title: 'FeatureInput' },
);

const Ip = Type.Optional(NullableString({ maxLength: 45, description: 'The customer IP address, for location-based tax' }));

export const ChargeCreate = Type.Object(
  {
    planIdentifier: Type.String({ minLength: 1, maxLength: 200 }),
    chargePeriod: Type.String({ minLength: 1, description: 'Must be ONE_TIME' }),
    customerId: Type.String({ minLength: 1, maxLength: 255 }),
    features: Type.Optional(Type.Union([Type.Array(FeatureInput, { maxItems: 100 }), Type.Null()])),
    currencyCode: Type.Optional(NullableString({ description: "ISO 4217; must match the customer's currency once it has one" })),
    ipAddress: Ip,
  },
  { additionalProperties: false, title: 'ChargeCreate' },
);
export type ChargeCreate = Static<typeof ChargeCreate>;

const ProductRef = Type.Object({ name: Type.String(), id: Type.String({ format: 'uuid' }), identifier: Type.String() });
const PlanRef = Type.Object({ name: Type.String(), identifier: Type.String() });

export const SubscriptionFeature = Type.Object(
  {
    id: Type.String(),
    identifier: Type.String(),
    name: Type.String(),
    description: Type.String(),
    featureType: Type.String(),
    details: Type.Record(Type.String(), Type.Unknown()),
    isArchived: Type.Boolean(),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    modifiedOn: Type.String(),
    meter: Type.Record(Type.String(), Type.Unknown()),
    featureDetails: Type.Record(Type.String(), Type.Unknown()),
    reset: Type.Union([Type.String(), Type.Null()]),
    resetTime: Type.Union([Type.String(), Type.Null()]),
    value: Type.Union([Type.Number(), Type.Boolean(), Type.Null()]),
    hardLimit: Type.Boolean(),
    quantity: Type.Union([Type.Integer(), Type.Null()]),
  },
  { title: 'SubscriptionFeature' },
);

export const ChargeRecord = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    startDate: Type.String({ format: 'date' }),
    endDate: Type.Null(),
    billingPeriodStartTime: Type.Null(),
    billingPeriodEndTime: Type.Null(),
    amount: Type.String({ description: 'Decimal amount charged, as text' }),
    recurrence: Type.String(),
    currency: Type.String(),
    status: Type.String(),
    product: ProductRef,
    plan: PlanRef,
    features: Type.Array(SubscriptionFeature),
    trialDaysRemaining: Type.Integer(),
    customerId: Type.String(),
    billingType: Type.String(),
    recurrenceUnit: Type.Null(),
    recurrenceType: Type.Null(),
    orderId: Type.String({ description: 'The order the charge created (an addition of Billow)' }),
    invoiceId: Type.String({ description: 'The invoice of that order (an addition of Billow)' }),
  },
  { title: 'ChargeRecord' },
);
export type ChargeRecord = Static<typeof ChargeRecord>;

const PlanFileOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  file: Type.String(),
  ordering: Type.Integer(),
  enabled: Type.Boolean(),
  downloadUrl: Type.String(),
});
const LicenseOut = Type.Object({
  id: Type.String({ format: 'uuid' }),
  licenseKey: Type.String(),
  activatedOn: Type.Union([Type.String(), Type.Null()]),
  expiresOn: Type.Union([Type.String(), Type.Null()]),
  activationUsage: Type.Integer(),
  activationLimit: Type.Union([Type.Integer(), Type.Null()]),
  enabled: Type.Boolean(),
});

const subscriptionFields = {
  id: Type.String({ format: 'uuid' }),
  externalSubscriptionId: Type.Union([Type.String(), Type.Null()]),
  startDate: Type.String(),
  endDate: Type.Union([Type.String(), Type.Null()]),
  billingPeriodStartTime: Type.Union([Type.String(), Type.Null()]),
  billingPeriodEndTime: Type.Union([Type.String(), Type.Null()]),
  trialEnd: Type.Union([Type.String(), Type.Null()]),
  amount: Type.String(),
  recurrence: Type.String(),
  status: Type.Enum([...SUBSCRIPTION_STATUSES]),
  plan: PlanRef,
  planVersion: Type.Integer(),
  chargePeriod: Type.String(),
  features: Type.Array(SubscriptionFeature),
  trialDaysRemaining: Type.Integer(),
  customerId: Type.String(),
  billingType: Type.String(),
  recurrenceUnit: Type.Union([Type.Integer(), Type.Null()]),
  recurrenceType: Type.Union([Type.String(), Type.Null()]),
  files: Type.Array(PlanFileOut),
  links: Type.Array(Type.Object({ name: Type.String(), url: Type.String() })),
  license: Type.Array(LicenseOut),
  previousSubscriptionId: Type.Union([Type.String(), Type.Null()]),
  createdOn: Type.String(),
};

/** List and retrieve: `product` is the product's name and `currency` lower case, as the reference shows. */
export const Subscription = Type.Object(
  {
    ...subscriptionFields,
    currency: Type.String(),
    product: Type.String(),
    canceledAt: Type.Union([Type.String(), Type.Null()]),
    cancellationReason: Type.Union([Type.String(), Type.Null()]),
    cancellationFeedback: Type.Union([Type.String(), Type.Null()]),
    cancellationComment: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'Subscription' },
);
export type Subscription = Static<typeof Subscription>;

/** Create: `product` is an object and `currency` upper case, as the reference shows. */
export const SubscriptionCreated = Type.Object(
  { ...subscriptionFields, currency: Type.String(), product: ProductRef },
  { title: 'SubscriptionCreated' },
);
export type SubscriptionCreated = Static<typeof SubscriptionCreated>;

export const SubscriptionCreate = Type.Object(
  {
    planIdentifier: Type.String({ minLength: 1, maxLength: 200 }),
    chargePeriod: Type.String({ minLength: 1 }),
    customerId: Type.String({ minLength: 1, maxLength: 255 }),
    features: Type.Optional(Type.Union([Type.Array(FeatureInput, { maxItems: 100 }), Type.Null()])),
    currencyCode: Type.Optional(NullableString()),
    successUrl: Type.Optional(NullableString({ maxLength: 2048 })),
    ipAddress: Ip,
  },
  { additionalProperties: false, title: 'SubscriptionCreate' },
);
export type SubscriptionCreate = Static<typeof SubscriptionCreate>;

export const SUBSCRIPTION_SORTS = ['createdOn', 'currentPeriodEnd'] as const;

export const SubscriptionListQuery = Type.Object({
  ...PageQuery.properties,
  customer_id: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'The customer whose subscriptions to list (their customerId or UUID). Required unless one of our list parameters ' +
        '(plan, search, sort) is given: then every customer\'s subscriptions of the environment are listed',
    }),
  ),
  status: Type.Optional(Type.String({ description: 'Comma-separated statuses; without it, superseded and ended rows are hidden' })),
  plan: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: "Ours: only this plan's subscriptions (its identifier or UUID); an unknown plan gives an empty list" }),
  ),
  plan_version: Type.Optional(
    Type.Integer({ minimum: 1, maximum: INT4_MAX, description: "Ours, with plan: only the subscriptions on this version of the plan" }),
  ),
  search: SearchQuery("the customer's name, email and customerId"),
  ...ListSort(SUBSCRIPTION_SORTS, 'newest first'),
  ...CountQuery,
});
export type SubscriptionListQuery = Static<typeof SubscriptionListQuery>;

/** Billow extension (decision 0086): how many subscriptions each version of a plan has, as the list counts them. */
export const SubscriptionVersionCountsQuery = Type.Object({
  plan: Type.String({ minLength: 1, maxLength: 200, description: "The plan (its identifier or UUID)" }),
  status: Type.Optional(Type.String({ description: 'Comma-separated statuses, as in the list; without it, the subscriptions the list shows by default' })),
});
export type SubscriptionVersionCountsQuery = Static<typeof SubscriptionVersionCountsQuery>;

export const SubscriptionVersionCounts = Type.Object(
  {
    plan: Type.String({ description: "The plan's identifier" }),
    versions: Type.Array(
      Type.Object({
        version: Type.Integer(),
        subscriptions: Type.Integer({ description: 'Subscriptions on this version: GET /subscriptions/?plan=…&plan_version=… lists them' }),
      }),
      { description: 'Every version of the plan, drafts included, newest first' },
    ),
  },
  { title: 'SubscriptionVersionCounts' },
);
export type SubscriptionVersionCounts = Static<typeof SubscriptionVersionCounts>;

export const SubscriptionList = CappedPaginated(Subscription, 'SubscriptionList');

export const SubscriptionUpdate = Type.Object(
  {
    planIdentifier: Type.String({ minLength: 1, maxLength: 200 }),
    chargePeriod: Type.String({ minLength: 1 }),
    features: Type.Optional(Type.Union([Type.Array(FeatureInput, { maxItems: 100 }), Type.Null()])),
    ipAddress: Ip,
    trialEnd: Type.Optional(NullableString({ description: '"now" ends the trial; a date-time moves its end' })),
    paymentBehavior: Type.Optional(NullableString({ description: 'activate_on_payment: apply the change only once it is paid' })),
    probationBehaviour: Type.Optional(Type.Union([Type.Enum([...PROBATION_BEHAVIOURS]), Type.Null()])),
    offeringId: Type.Optional(Type.Union([Type.String(), Type.Integer(), Type.Null()])),
    pricingTableId: Type.Optional(Type.Union([Type.String(), Type.Integer(), Type.Null()])),
    ruleId: Type.Optional(Type.Union([Type.String(), Type.Integer(), Type.Null()])),
  },
  { additionalProperties: false, title: 'SubscriptionUpdate' },
);
export type SubscriptionUpdate = Static<typeof SubscriptionUpdate>;

export const SubscriptionCancel = Type.Object(
  {
    cancellationType: Type.Enum([...CANCELLATION_TYPES]),
    cancellationDate: Type.Optional(NullableString({ description: 'yyyy-MM-dd; required for SPECIFIC_DATE' })),
    cancellationFeedback: Type.Optional(Type.Union([Type.Enum([...CANCELLATION_FEEDBACK]), Type.Null()])),
    cancellationComment: Type.Optional(NullableString({ maxLength: 2000 })),
  },
  { additionalProperties: false, title: 'SubscriptionCancel' },
);
export type SubscriptionCancel = Static<typeof SubscriptionCancel>;
