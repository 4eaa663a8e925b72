import { Type, type Static } from 'typebox';
import { Metadata, NullableString, Paginated, PageQuery, Timestamp } from './common.js';

export const BillingAddress = Type.Object(
  {
    country: Type.Optional(NullableString({ description: 'ISO 3166-1 alpha-2 country code' })),
    line1: Type.Optional(NullableString({ maxLength: 200 })),
    line2: Type.Optional(NullableString({ maxLength: 200 })),
    postalCode: Type.Optional(NullableString({ maxLength: 40 })),
    city: Type.Optional(NullableString({ maxLength: 100 })),
    state: Type.Optional(NullableString({ maxLength: 100 })),
  },
  { additionalProperties: false, title: 'BillingAddress' },
);
export type BillingAddress = Static<typeof BillingAddress>;

export const Customer = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    customerId: Type.String({ description: "The seller's own identifier for the customer" }),
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
    details: Type.Record(Type.String(), Type.Unknown()),
    metadata: Metadata,
    billingAddress: Type.Union([BillingAddress, Type.Null()]),
    isArchived: Type.Boolean(),
    testClockId: Type.Optional(Type.String({ description: 'Sandbox, ours: the test clock the customer lives by; absent for customers in real time' })),
    createdOn: Timestamp,
    modifiedOn: Timestamp,
  },
  { title: 'Customer' },
);
export type Customer = Static<typeof Customer>;

const customerIdField = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^\\S(.*\\S)?$',
  description: 'Unique per environment, immutable and never reusable, even after archiving',
});

export const CustomerCreate = Type.Object(
  {
    customerId: customerIdField,
    name: Type.Optional(NullableString({ maxLength: 255 })),
    email: Type.Optional(NullableString({ format: 'email', maxLength: 254 })),
    metadata: Type.Optional(Type.Union([Metadata, Type.Null()])),
    billingAddress: Type.Optional(Type.Union([BillingAddress, Type.Null()])),
    testClockId: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
        description: 'Sandbox only (ours): attach the customer to a test clock, for good; its subscriptions then follow that clock',
      }),
    ),
  },
  { additionalProperties: false, title: 'CustomerCreate' },
);
export type CustomerCreate = Static<typeof CustomerCreate>;

export const CustomerUpdate = Type.Object(
  {
    name: Type.Optional(NullableString({ maxLength: 255 })),
    email: Type.Optional(NullableString({ format: 'email', maxLength: 254 })),
    metadata: Type.Optional(
      Type.Union([Metadata, Type.Null()], { description: 'Replaces the stored metadata as a whole; null clears it' }),
    ),
    billingAddress: Type.Optional(
      Type.Union([BillingAddress, Type.Null()], {
        description: 'Replaces the stored address as a whole; null clears it',
      }),
    ),
    taxId: Type.Optional(
      NullableString({ maxLength: 50, description: "Ours: the customer's tax id (VAT, GST …), kept in details.taxId and printed on later invoices; null clears it" }),
    ),
  },
  { additionalProperties: false, title: 'CustomerUpdate' },
);
export type CustomerUpdate = Static<typeof CustomerUpdate>;

export const CustomerListQuery = Type.Object({
  ...PageQuery.properties,
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Matches name, email and customerId' })),
});
export type CustomerListQuery = Static<typeof CustomerListQuery>;

export const CustomerPath = Type.Object({ customerId: Type.String({ minLength: 1 }) });

export const CustomerArchiveQuery = Type.Object({
  cancel_subscriptions: Type.Optional(
    Type.Boolean({
      description: "Ours: cancel the customer's active, trialing and past_due subscriptions immediately, as part of the archive",
    }),
  ),
});

export const CustomerList = Paginated(Customer, 'CustomerList');
