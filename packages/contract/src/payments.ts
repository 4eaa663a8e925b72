import { Type, type Static } from 'typebox';
import { BillingAddress } from './customers.js';
import { NullableString, PageQuery, Paginated, Timestamp } from './common.js';

// Saved payment methods (GET /payment-methods/), and Billow's sandbox-only test-card attachment.

export const PAYMENT_METHOD_STATUSES = ['succeeded', 'requires_action'] as const;

export const PaymentMethodCustomer = Type.Object(
  {
    customerId: Type.String({ description: "The seller's own identifier for the customer" }),
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
    billingAddress: Type.Union([BillingAddress, Type.Null()]),
  },
  { title: 'PaymentMethodCustomer' },
);
export type PaymentMethodCustomer = Static<typeof PaymentMethodCustomer>;

export const PaymentMethodData = Type.Object(
  {
    brand: Type.Optional(NullableString({ description: 'Card brand: visa, mastercard, amex, discover or unknown' })),
    last4: Type.Optional(NullableString()),
    expMonth: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    expYear: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    funding: Type.Optional(NullableString({ description: 'credit, debit, prepaid or unknown' })),
    country: Type.Optional(NullableString({ description: 'ISO 3166-1 alpha-2 country of the issuer' })),
  },
  {
    additionalProperties: true,
    title: 'PaymentMethodData',
    description: 'Provider-specific details; for `card`: brand, last4, expMonth, expYear, funding, country',
  },
);
export type PaymentMethodData = Static<typeof PaymentMethodData>;

export const PaymentMethod = Type.Object(
  {
    id: Type.Integer({ description: 'Server-generated identifier of the saved method' }),
    customer: PaymentMethodCustomer,
    methodType: Type.String({ description: 'card, sepa_debit, amazon_pay, …' }),
    methodData: PaymentMethodData,
    isDefault: Type.Boolean({ description: "Whether this is the customer's default method (at most one is)" }),
    status: Type.Union([Type.Literal('succeeded'), Type.Literal('requires_action')], {
      description: 'Lists only ever include succeeded methods',
    }),
    createdOn: Timestamp,
    modifiedOn: Timestamp,
  },
  { title: 'PaymentMethod' },
);
export type PaymentMethod = Static<typeof PaymentMethod>;

export const PaymentMethodList = Paginated(PaymentMethod, 'PaymentMethodList');

export const PaymentMethodListQuery = Type.Object({
  ...PageQuery.properties,
  customer_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Only the methods of the customer with this customerId' }),
  ),
  customer_email: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 254,
      description: 'Only the methods of customers with this email address (compared without regard to case)',
    }),
  ),
});
export type PaymentMethodListQuery = Static<typeof PaymentMethodListQuery>;

export const PaymentMethodCreate = Type.Object(
  {
    customerId: Type.String({ minLength: 1, maxLength: 255, description: 'The customerId of an existing customer' }),
    cardNumber: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'A test card number, e.g. "4242 4242 4242 4242"; spaces and dashes are ignored. It must pass the Luhn check.',
    }),
    expMonth: Type.Integer({ minimum: 1, maximum: 12 }),
    expYear: Type.Integer({
      minimum: 0,
      maximum: 9999,
      description: 'Four digits, or two (29 means 2029). The card must not have expired.',
    }),
    cvc: Type.String({ pattern: '^[0-9]{3,4}$', description: 'Three digits, four for American Express. Never stored.' }),
  },
  { additionalProperties: false, title: 'PaymentMethodCreate' },
);
export type PaymentMethodCreate = Static<typeof PaymentMethodCreate>;

export const PaymentMethodPath = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 40, description: 'The payment method id (an integer)' }),
});
export type PaymentMethodPath = Static<typeof PaymentMethodPath>;

export const PaymentMethodSetDefault = Type.Object({}, { additionalProperties: false, title: 'PaymentMethodSetDefault' });
