import { Type, type Static } from 'typebox';
import { Metadata, PageQuery, Paginated, Timestamp } from './common.js';

/** Discounts (ours: the reference manages them in its dashboard only, DOMAIN.md §3.13). */
export const DISCOUNT_TYPES = ['PERCENTAGE', 'FIXED_AMOUNT'] as const;
export const DISCOUNT_DURATIONS = ['ONCE', 'REPEATING', 'FOREVER'] as const;
export const DISCOUNT_STATUSES = ['ACTIVE', 'EXPIRED', 'ARCHIVED'] as const;

export const DiscountAmountInput = Type.Object(
  {
    currency: Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217 code, such as USD' }),
    amount: Type.Number({
      exclusiveMinimum: 0,
      description: "In the currency's major unit, with no more decimals than the currency has (5.50 USD)",
    }),
  },
  { additionalProperties: false, title: 'DiscountAmountInput' },
);

export const DiscountRestrictions = Type.Object(
  {
    planIdentifiers: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 })),
    productIds: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100, description: 'Product ids (or identifiers)' }),
    ),
  },
  {
    additionalProperties: false,
    title: 'DiscountRestrictions',
    description: 'Where the code applies: a listed plan, or any plan of a listed product. Both empty: everywhere.',
  },
);

export const DiscountCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
    code: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 40,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'What the buyer types; letters, digits, - and _; unique per environment without regard to case among discounts not archived. Generated (8 capital letters and digits) when omitted.',
      }),
    ),
    discountType: Type.Enum([...DISCOUNT_TYPES]),
    percentOff: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 100, description: 'PERCENTAGE: the share off, at most two decimals (12.5 is 12.5 %)' }),
    ),
    amountsOff: Type.Optional(
      Type.Array(DiscountAmountInput, { minItems: 1, maxItems: 50, description: 'FIXED_AMOUNT: the amount off in each currency it applies to' }),
    ),
    duration: Type.Optional(
      Type.Enum([...DISCOUNT_DURATIONS], {
        description:
          'ONCE: the first payment only. REPEATING: `durationInCycles` payments, the first and the renewals after it. FOREVER: every payment. ' +
          'Default: REPEATING when `durationInCycles` is given, else FOREVER (the reference keeps "recurring" on by default).',
      }),
    ),
    durationInCycles: Type.Optional(Type.Integer({ minimum: 1, maximum: 120, description: 'REPEATING: how many payments are discounted' })),
    maxRedemptions: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'How many times the code may be redeemed in all' })),
    expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'After this time the code is refused; must be in the future' })),
    restrictions: Type.Optional(DiscountRestrictions),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, title: 'DiscountCreate' },
);
export type DiscountCreate = Static<typeof DiscountCreate>;

export const DiscountAmount = Type.Object({
  currency: Type.String(),
  amount: Type.Number({ description: 'Major unit (5.5 for 5.50 USD)' }),
  amountUnits: Type.Integer({ description: 'Minor unit (550 for 5.50 USD)' }),
});

export const Discount = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    object: Type.Literal('discount'),
    name: Type.String(),
    code: Type.String(),
    status: Type.Enum([...DISCOUNT_STATUSES], {
      description: 'ARCHIVED once archived; EXPIRED past `expiresAt` or when every redemption is used; else ACTIVE',
    }),
    discountType: Type.Enum([...DISCOUNT_TYPES]),
    percentOff: Type.Union([Type.Number(), Type.Null()]),
    amountsOff: Type.Array(DiscountAmount),
    duration: Type.Enum([...DISCOUNT_DURATIONS]),
    durationInCycles: Type.Union([Type.Integer(), Type.Null()]),
    maxRedemptions: Type.Union([Type.Integer(), Type.Null()]),
    timesRedeemed: Type.Integer(),
    expiresAt: Type.Union([Timestamp, Type.Null()]),
    restrictions: Type.Object({ planIdentifiers: Type.Array(Type.String()), productIds: Type.Array(Type.String({ format: 'uuid' })) }),
    metadata: Metadata,
    createdOn: Timestamp,
    modifiedOn: Timestamp,
    archivedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'Discount' },
);
export type Discount = Static<typeof Discount>;

export const DiscountListQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(Type.Enum([...DISCOUNT_STATUSES])),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the code or the name, without regard to case' })),
});
export type DiscountListQuery = Static<typeof DiscountListQuery>;

export const DiscountPath = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'The discount id, or its code (the discount not archived first)' }),
});
export const DiscountList = Paginated(Discount, 'DiscountList');
