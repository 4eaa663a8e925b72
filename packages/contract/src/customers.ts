import { Type, type Static } from 'typebox';
import { CappedPaginated, CountQuery, ListSort, Metadata, NullableString, PageQuery, Paginated, Timestamp } from './common.js';

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

/** The business tax id types Billow checks (Billow's extension; the reference keeps no tax ids on customers). */
export const TAX_ID_TYPES = [
  'eu_vat', 'gb_vat', 'ch_vat', 'ch_uid', 'no_vat', 'no_orgnr', 'au_abn', 'ca_gst_hst', 'ca_bn',
  'nz_gst', 'in_gst', 'sg_uen', 'is_vat', 'us_ein', 'other',
] as const;

export const TaxIdInput = Type.Object(
  {
    value: Type.String({ minLength: 2, maxLength: 60, description: 'As issued, e.g. FR40303265045, GB980780684, CHE-116.281.710 MWST, 51 824 753 556' }),
    country: Type.Optional(
      NullableString({ description: 'ISO 3166-1 alpha-2; may be left out when the type (gb_vat …) or an EU VAT prefix (FR…) tells it, else the billing country is taken' }),
    ),
    type: Type.Optional(
      Type.Union([Type.Enum([...TAX_ID_TYPES]), Type.Null()], { description: "Left out: the first of the country's types the value passes" }),
    ),
  },
  { additionalProperties: false, title: 'TaxIdInput' },
);
export type TaxIdInput = Static<typeof TaxIdInput>;

export const TAX_ID_STATUSES = ['unchecked', 'verified', 'unavailable'] as const;

export const TaxId = Type.Object(
  {
    type: Type.Enum([...TAX_ID_TYPES]),
    value: Type.String({ description: 'Upper case, compact; an EU VAT id with its country prefix (EL for Greece)' }),
    country: Type.String(),
    verification: Type.Object(
      {
        status: Type.Enum([...TAX_ID_STATUSES], {
          description: 'unchecked: format and check digits only; verified: the online register (VIES) knows it; unavailable: the register could not be asked',
        }),
        checkedOn: Type.Union([Timestamp, Type.Null()]),
        name: Type.Union([Type.String(), Type.Null()], { description: 'The name the register holds for it, when it gives one' }),
      },
      { title: 'TaxIdVerification' },
    ),
  },
  { title: 'TaxId' },
);
export type TaxId = Static<typeof TaxId>;

const TaxIdsInput = Type.Array(TaxIdInput, { maxItems: 5, description: "Ours: the customer's business tax ids (at most one of each type); they are checked and printed on invoices" });

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
    taxIds: Type.Optional(
      Type.Array(TaxId, {
        description: "Ours: the customer's business tax ids, absent when there are none; an EU VAT id of another member state than the seller's makes its purchases reverse charged",
      }),
    ),
    testClockId: Type.Optional(Type.String({ description: 'Sandbox, ours: the test clock the customer lives by; absent for customers in real time' })),
    locale: Type.Optional(Type.String({ description: "Ours: the customer's language (an IETF tag such as de or ja-JP) for hosted pages; absent until set" })),
    createdOn: Timestamp,
    modifiedOn: Timestamp,
  },
  { title: 'Customer' },
);
export type Customer = Static<typeof Customer>;

/** A language tag as BCP 47 writes it (checked again, and canonicalised, by the server). */
const localeField = Type.Union(
  [Type.String({ minLength: 2, maxLength: 35, pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$' }), Type.Null()],
  { description: "Ours: the customer's language for hosted pages (de, fr-CA, ja …); null clears it, and the browser's language decides" },
);

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
    taxIds: Type.Optional(Type.Union([TaxIdsInput, Type.Null()])),
    testClockId: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
        description: 'Sandbox only (ours): attach the customer to a test clock, for good; its subscriptions then follow that clock',
      }),
    ),
    locale: Type.Optional(localeField),
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
    taxIds: Type.Optional(
      Type.Union([TaxIdsInput, Type.Null()], { description: 'Replaces the stored tax ids as a whole; null or [] clears them' }),
    ),
    taxId: Type.Optional(
      NullableString({ maxLength: 60, description: 'Ours, kept for older callers: one tax id, as taxIds: [{value}] (its country from its prefix or the billing country); null clears them' }),
    ),
    locale: Type.Optional(localeField),
  },
  { additionalProperties: false, title: 'CustomerUpdate' },
);
export type CustomerUpdate = Static<typeof CustomerUpdate>;

export const CUSTOMER_SORTS = ['createdOn', 'name', 'email', 'customerId'] as const;

export const CustomerListQuery = Type.Object({
  ...PageQuery.properties,
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Matches name, email and customerId, anywhere and in any case' })),
  ...ListSort(CUSTOMER_SORTS, 'newest first'),
  ...CountQuery,
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

export const CustomerList = CappedPaginated(Customer, 'CustomerList');

/** Billow extension (decision 0085): one event of a customer's timeline, as webhooks deliver it. */
export const CustomerEvent = Type.Object(
  {
    id: Type.String({ description: 'The event id, also the webhook-id of its deliveries' }),
    type: Type.String({ description: 'The webhook event type, e.g. customer.created, invoice.paid' }),
    objectType: Type.Union([Type.String(), Type.Null()], { description: "The kind of the event's object (customer, order, subscription, ...)" }),
    objectId: Type.Union([Type.String(), Type.Null()], { description: "The id of the event's object" }),
    actor: Type.Union([Type.String(), Type.Null()], { description: 'Who caused it: `customer_portal` for the customer in the portal, null for the API and background work' }),
    createdOn: Timestamp,
  },
  { title: 'CustomerEvent' },
);
export type CustomerEvent = Static<typeof CustomerEvent>;

export const CustomerEventList = Paginated(CustomerEvent, 'CustomerEventList');
export const CustomerEventListQuery = PageQuery;

/** Billow extension (decision 0085): a customer's license keys with the machines (instances) each is active on. */
export const CustomerLicenseInstance = Type.Object(
  {
    id: Type.String({ description: 'The instance id that POST /license/deactivate/ and the seller\'s POST …/instances/{instanceId}/deactivate/ take' }),
    name: Type.String({ description: 'The instance name given at activation' }),
    activatedOn: Timestamp,
    lastValidatedOn: Type.Union([Timestamp, Type.Null()], { description: 'When POST /license/validate/ last named it; null: never' }),
  },
  { title: 'CustomerLicenseInstance' },
);
export type CustomerLicenseInstance = Static<typeof CustomerLicenseInstance>;
export const CustomerLicense = Type.Object(
  {
    id: Type.String(),
    licenseKey: Type.String(),
    planName: Type.String({ description: 'The plan it was sold with' }),
    enabled: Type.Boolean(),
    expiresOn: Type.Union([Timestamp, Type.Null()]),
    activationLimit: Type.Union([Type.Integer(), Type.Null()], { description: 'null: unlimited' }),
    instances: Type.Array(CustomerLicenseInstance, { description: 'The active instances, oldest first' }),
  },
  { title: 'CustomerLicense' },
);
export type CustomerLicense = Static<typeof CustomerLicense>;
export const CustomerLicenseList = Type.Object(
  { licenses: Type.Array(CustomerLicense, { description: 'Newest first' }) },
  { title: 'CustomerLicenseList' },
);
export type CustomerLicenseList = Static<typeof CustomerLicenseList>;
