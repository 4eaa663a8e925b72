import { Type, type Static } from 'typebox';
import { Metadata, NullableString, PageQuery, Paginated, Timestamp } from './common.js';
import { Product } from './catalog.js';
import { FeatureInput } from './commerce.js';

const Reference = Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Integer(), Type.Null()]));
const Flag = (description: string) => Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { description }));

/**
 * POST /checkout/ (DOMAIN.md §2.2, interface §4.7). Bodies arrive in camelCase or
 * snake_case (`custom_amount`, `tax_behavior`, `currency_code`): the body parser
 * renames keys to camelCase, leaving `metadata` as sent.
 */
export const CheckoutSessionCreate = Type.Object(
  {
    planIdentifier: Type.String({ minLength: 1, maxLength: 200 }),
    chargePeriod: Type.String({ minLength: 1, maxLength: 40, description: 'ONE_TIME, MONTHLY, YEARLY, …: a period the plan has a price for' }),
    successUrl: Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL the buyer is sent to, with ?checkout_session_id=' }),
    cancelUrl: Type.Optional(NullableString({ maxLength: 2048 })),
    customerId: Type.Optional(NullableString({ maxLength: 255, description: 'An unknown id creates the customer on completion; none: a generated id' })),
    features: Type.Optional(Type.Union([Type.Array(FeatureInput, { maxItems: 100 }), Type.Null()], { description: 'Quantities of priced meters' })),
    ipAddress: Type.Optional(NullableString({ maxLength: 45, description: 'The buyer IP address: its country prefills billing and sets tax' })),
    plansEnabled: Type.Optional(
      Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 200 }), { maxItems: 20 }), Type.Null()], {
        description: 'Comma-separated plan identifiers of the same product the buyer may choose between',
      }),
    ),
    currencyCode: Type.Optional(NullableString({ maxLength: 3 })),
    customAmount: Type.Optional(
      Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.String({ maxLength: 30 }), Type.Null()], {
        description: 'Overrides the plan price for this session (major units); needs taxBehavior; server keys only',
      }),
    ),
    taxBehavior: Type.Optional(Type.Union([Type.Enum(['INCLUSIVE', 'EXCLUSIVE']), Type.Null()])),
    discountsEnabled: Flag('Whether the page offers a discount-code field (default true)'),
    discountCode: Type.Optional(NullableString({ maxLength: 100 })),
    lockEmail: Flag('When true the email field of the page is disabled'),
    defaultBillingCountry: Type.Optional(NullableString({ maxLength: 2, description: 'ISO 3166-1 alpha-2; prefills the billing country' })),
    metadata: Type.Optional(Type.Union([Metadata, Type.Null()])),
    offeringId: Reference,
    pricingTableId: Reference,
    ruleId: Reference,
  },
  { additionalProperties: false, title: 'CheckoutSessionCreate' },
);
export type CheckoutSessionCreate = Static<typeof CheckoutSessionCreate>;

export const CheckoutSessionCreated = Type.Object(
  {
    checkoutUrl: Type.String({ format: 'uri' }),
    checkoutSessionId: Type.String({ pattern: '^cs_[A-Za-z0-9]{24,}$' }),
  },
  { title: 'CheckoutSessionCreated' },
);
export type CheckoutSessionCreated = Static<typeof CheckoutSessionCreated>;

const Loose = Type.Record(Type.String(), Type.Unknown());
const NullableObject = Type.Union([Loose, Type.Null()]);

export const CheckoutSession = Type.Object(
  {
    id: Type.String(),
    customer: Type.Union([
      Type.Object({ customerId: Type.Union([Type.String(), Type.Null()]), name: Type.Union([Type.String(), Type.Null()]), email: Type.Union([Type.String(), Type.Null()]) }),
      Type.Null(),
    ]),
    product: Product,
    billingAddress: NullableObject,
    discountCode: Type.Union([Type.String(), Type.Null()]),
    taxId: Type.Union([Type.String(), Type.Null()]),
    currency: Type.Union([Type.String(), Type.Null()]),
    currencySymbol: Type.Union([Type.String(), Type.Null()]),
    status: Type.Enum(['open', 'processing', 'success', 'expired']),
    createdOn: Timestamp,
    expiresOn: Timestamp,
    checkoutUrl: Type.String(),
    selectedData: Loose,
    offeringData: NullableObject,
    data: Loose,
    customFieldsData: Loose,
    metadata: Metadata,
    customization: Loose,
    trialPeriod: Type.Union([Type.Integer(), Type.Null()]),
  },
  { title: 'CheckoutSession' },
);
export type CheckoutSession = Static<typeof CheckoutSession>;

export const CheckoutSessionDetail = Type.Object(
  {
    ...CheckoutSession.properties,
    order: NullableObject,
    subscription: NullableObject,
    paymentMethod: Type.Union([
      Type.Object({ paymentMethodType: Type.String(), paymentMethodName: Type.String(), last4: Type.Union([Type.String(), Type.Null()]) }),
      Type.Null(),
    ]),
  },
  { title: 'CheckoutSessionDetail' },
);
export type CheckoutSessionDetail = Static<typeof CheckoutSessionDetail>;

const DateFilter = (description: string) =>
  Type.Optional(Type.String({ maxLength: 40, description: `${description}: a date (YYYY-MM-DD, whole day in UTC) or an ISO 8601 date-time` }));

export const CheckoutSessionListQuery = Type.Object({
  ...PageQuery.properties,
  search: Type.Optional(Type.String({ maxLength: 200, description: "Matches the session id, the customer's name, email and customerId, and the product name" })),
  status: Type.Optional(Type.Enum(['open', 'processing', 'success', 'expired'])),
  start_date: DateFilter('Sessions created on or after (UTC date)'),
  end_date: DateFilter('Sessions created on or before (UTC date)'),
});
export type CheckoutSessionListQuery = Static<typeof CheckoutSessionListQuery>;

export const CheckoutSessionList = Paginated(CheckoutSession, 'CheckoutSessionList');

export const CheckoutSessionEvent = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    code: Type.String(),
    status: Type.Enum(['pending', 'success', 'failed']),
    timestamp: Timestamp,
    metadata: Loose,
  },
  { title: 'CheckoutSessionEvent' },
);
export const CheckoutSessionEventList = Paginated(CheckoutSessionEvent, 'CheckoutSessionEventList');

export const CheckoutSessionPath = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: 'The checkout session id (cs_…)' }) });
