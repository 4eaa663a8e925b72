import { Type, type Static } from 'typebox';
import { Metadata, NullableString } from './common.js';

// License keys: activation, deactivation and validation of the instances of a key
// (reference: POST /license/activate/, /license/deactivate/, /license/validate/).

/** A UUID as PostgreSQL reads it: the reference's instance ids. */
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const licenseKey = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'The license key, as issued with the order (e.g. LIC-A8D5F89E-B46B-472C-9BED-66EE2545B85E)',
});
const instanceId = Type.String({ pattern: UUID_PATTERN, description: 'The instance id that activation returned' });
const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);

export const LicenseActivate = Type.Object(
  {
    licenseKey,
    customerId: Type.Optional(
      NullableString({ maxLength: 255, description: 'When given, it must be the customerId of the customer who owns the key' }),
    ),
    instanceName: Type.Optional(NullableString({ maxLength: 255, description: "A name for the machine, e.g. Geo's MacBook Pro" })),
    metadata: Type.Optional(Type.Union([Metadata, Type.Null()])),
  },
  { additionalProperties: false, title: 'LicenseActivate' },
);
export type LicenseActivate = Static<typeof LicenseActivate>;

export const LicenseDeactivate = Type.Object(
  { licenseKey, instanceId },
  { additionalProperties: false, title: 'LicenseDeactivate' },
);
export type LicenseDeactivate = Static<typeof LicenseDeactivate>;

export const LicenseValidate = Type.Object(
  {
    licenseKey,
    instanceId: Type.Optional(Type.Union([instanceId, Type.Null()], { description: 'When given, the instance must be active on the key' })),
  },
  { additionalProperties: false, title: 'LicenseValidate' },
);
export type LicenseValidate = Static<typeof LicenseValidate>;

export const LicenseCustomer = Type.Object(
  { customerId: Type.String(), name: NullableString(), email: NullableString() },
  { title: 'LicenseCustomer' },
);

export const LicensePlan = Type.Object(
  {
    identifier: Type.String(),
    name: Type.String(),
    description: Type.String(),
    version: Type.Integer(),
    isLatest: Type.Boolean({ description: 'Whether the version the key was sold with is the published one' }),
    product: Type.Object({
      id: Type.String({ format: 'uuid' }),
      identifier: Type.String(),
      name: Type.String(),
      taxCode: Type.String(),
      createdOn: DateTime,
      modifiedOn: DateTime,
    }),
  },
  { title: 'LicensePlan' },
);

export const LicenseSubscription = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    externalSubscriptionId: NullableString(),
    recurrence: NullableString({ description: 'e.g. "1 month"' }),
    billingPeriodStartTime: NullableDateTime,
    billingPeriodEndTime: NullableDateTime,
    startDate: Type.String({ format: 'date' }),
    endDate: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    status: Type.String(),
    amount: Type.String({ description: 'What one period costs, as a decimal text' }),
    currency: Type.String({ description: 'Lower case, as the reference shows it' }),
    trialDaysRemaining: Type.Integer(),
    billingType: Type.Enum(['SUBSCRIPTION', 'ONE_TIME']),
    recurrenceUnit: Type.Union([Type.Integer(), Type.Null()]),
    recurrenceType: NullableString(),
  },
  { title: 'LicenseSubscription' },
);

export const LicenseDetails = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    licenseKey: Type.String(),
    activatedOn: Type.Union([DateTime, Type.Null()], { description: 'The first activation; null until the key is activated' }),
    expiresOn: Type.Union([DateTime, Type.Null()], { description: 'Counted from the purchase; null when the key never expires' }),
    activationUsage: Type.Integer({ description: 'Active instances' }),
    activationLimit: Type.Union([Type.Integer(), Type.Null()], { description: 'null when activations are unlimited' }),
    enabled: Type.Boolean(),
    customer: Type.Union([LicenseCustomer, Type.Null()]),
    plan: Type.Union([LicensePlan, Type.Null()]),
    subscription: Type.Union([LicenseSubscription, Type.Null()], {
      description:
        'The subscription the key was sold with, followed through plan changes to its newest successor; null for a one-time purchase',
    }),
  },
  { title: 'LicenseDetails' },
);
export type LicenseDetails = Static<typeof LicenseDetails>;

export const LicenseActivation = Type.Object(
  {
    instanceId: Type.String({ format: 'uuid' }),
    activatedAt: DateTime,
    expiresOn: Type.Union([DateTime, Type.Null()]),
    license: LicenseDetails,
  },
  { title: 'LicenseActivation' },
);
export type LicenseActivation = Static<typeof LicenseActivation>;

export const LicenseDeactivation = Type.Object(
  { message: Type.String(), deactivatedAt: DateTime },
  { title: 'LicenseDeactivation' },
);
export type LicenseDeactivation = Static<typeof LicenseDeactivation>;

/**
 * Billow extension (issue 29): the seller frees one machine of a customer's key by the key's and the
 * instance's ids, as the customer's license list names them (POST /license/deactivate/ takes the key itself).
 */
export const CustomerLicenseInstancePath = Type.Object({
  customerId: Type.String({ minLength: 1 }),
  licenseId: Type.String({ pattern: UUID_PATTERN, description: 'The key\'s id, from GET /customers/{customerId}/licenses/' }),
  instanceId,
});
export type CustomerLicenseInstancePath = Static<typeof CustomerLicenseInstancePath>;
export const LicenseInstanceFreed = Type.Object(
  {
    licenseId: Type.String(),
    instanceId: Type.String(),
    deactivatedOn: DateTime,
  },
  { title: 'LicenseInstanceFreed' },
);
export type LicenseInstanceFreed = Static<typeof LicenseInstanceFreed>;

export const LICENSE_VALIDATION_CODES = ['VALID', 'INVALID_KEY', 'INSTANCE_NOT_FOUND', 'EXPIRED', 'INVALID'] as const;

export const LicenseValidation = Type.Object(
  {
    valid: Type.Boolean(),
    code: Type.Enum([...LICENSE_VALIDATION_CODES], {
      description:
        'VALID; INVALID_KEY (404: no such key in this environment); INSTANCE_NOT_FOUND (404: the instance is unknown or deactivated); ' +
        'EXPIRED (the key is past its expiry); INVALID (the key was disabled)',
    }),
    detail: Type.String(),
    metadata: Type.Record(Type.String(), Type.Unknown(), { description: "The instance's metadata; {} without an instance" }),
    license: Type.Optional(LicenseDetails),
  },
  { title: 'LicenseValidation' },
);
export type LicenseValidation = Static<typeof LicenseValidation>;

/** The reference answers license refusals with `{error}`; `detail` and `code` are there for clients that read those. */
export const LicenseErrorBody = Type.Object(
  {
    error: Type.Optional(Type.String({ description: 'The reference field: the same text as detail' })),
    detail: Type.String(),
    code: Type.String(),
  },
  { title: 'LicenseError' },
);
export type LicenseErrorBody = Static<typeof LicenseErrorBody>;

/** A 400 with the reference's field errors (`{"licenseKey": ["This field is required."]}`) beside `detail` and `code`. */
export const LicenseFieldErrors = Type.Object(
  { detail: Type.String(), code: Type.String() },
  { additionalProperties: Type.Array(Type.String()), title: 'LicenseFieldErrors' },
);
export type LicenseFieldErrors = Static<typeof LicenseFieldErrors>;
