import { Type, type Static } from 'typebox';
import { FEATURE_TYPES } from './catalog.js';
import { NullableString } from './common.js';

// Entitlement checks (GET /entitlements) and usage reporting (POST /report/usage/, /report/event/).

export const USAGE_BEHAVIOURS = ['SET', 'DELTA'] as const;

/** Query strings arrive in snake_case; camelCase names (customerId) are renamed before validation. */
export const EntitlementsQuery = Type.Object({
  customer_id: Type.String({ minLength: 1, maxLength: 255, description: "The customer's customerId" }),
  feature_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'A feature identifier: only its entries are returned' }),
  ),
});
export type EntitlementsQuery = Static<typeof EntitlementsQuery>;

export const EntitlementDetail = Type.Object(
  {
    featureId: Type.String({ description: "The feature's identifier" }),
    featureType: Type.Enum([...FEATURE_TYPES]),
    hasAccess: Type.Boolean({
      description: 'BOOLEAN: the granted value. METER: false only when hardLimit is set and nothing remains',
    }),
    resetAt: Type.Union([Type.String(), Type.Null()], {
      description: 'METER: when the current usage period ends (yyyy-MM-dd HH:mm:ss, UTC); null when usage never resets',
    }),
    hardLimit: Type.Union([Type.Boolean(), Type.Null()]),
    usageLimit: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'METER: the entitled value plus purchased quantity plus rollover; CUSTOMIZABLE: the value. null: unlimited',
    }),
    currentUsage: Type.Union([Type.Integer(), Type.Null()], { description: 'METER: usage of the current period' }),
    remaining: Type.Union([Type.Integer(), Type.Null()], { description: 'METER: usageLimit - currentUsage; null: unlimited' }),
  },
  { title: 'EntitlementDetail' },
);
export type EntitlementDetail = Static<typeof EntitlementDetail>;

export const CheckEntitlementsResponse = Type.Object(
  {
    customerId: Type.String(),
    entitlements: Type.Array(EntitlementDetail, {
      description: 'One entry per granting subscription and feature: a feature granted twice appears twice',
    }),
  },
  { title: 'CheckEntitlementsResponse' },
);
export type CheckEntitlementsResponse = Static<typeof CheckEntitlementsResponse>;

const UsageValue = Type.Integer({ minimum: -1e15, maximum: 1e15 });

export const ReportUsageRequest = Type.Object(
  {
    value: UsageValue,
    customerId: Type.String({ minLength: 1, maxLength: 255 }),
    featureId: Type.String({ minLength: 1, maxLength: 255, description: "The feature's identifier" }),
    behaviour: Type.Enum([...USAGE_BEHAVIOURS], { description: 'SET replaces the period usage; DELTA adds to it (may be negative)' }),
    resourceId: Type.Optional(NullableString({ maxLength: 255 })),
    idempotencyKey: Type.Optional(
      NullableString({
        minLength: 1,
        maxLength: 255,
        description: 'Optional (a Billow addition): a report retried with the same key counts once',
      }),
    ),
  },
  { additionalProperties: false, title: 'ReportUsageRequest' },
);
export type ReportUsageRequest = Static<typeof ReportUsageRequest>;

export const ReportUsageResponse = Type.Object(
  {
    value: Type.Integer(),
    customerId: Type.String(),
    featureId: Type.String(),
    behaviour: Type.Enum([...USAGE_BEHAVIOURS]),
    resourceId: Type.Union([Type.String(), Type.Null()]),
    orgId: Type.String(),
    eventName: Type.String({ description: 'Always aggregated.usage' }),
    idempotencyKey: Type.String({ description: 'Server-generated, 32 hexadecimal characters' }),
    timestamp: Type.String({ description: 'When the report was recorded: yyyy-MM-dd HH:mm:ss.ffffff, UTC' }),
  },
  { title: 'ReportUsageResponse' },
);
export type ReportUsageResponse = Static<typeof ReportUsageResponse>;

/** The most reports one batch may carry (POST /report/usage/batch/, a Billow addition). */
export const USAGE_BATCH_MAX = 1000;

export const ReportUsageBatchItem = Type.Object(
  {
    value: UsageValue,
    customerId: Type.String({ minLength: 1, maxLength: 255 }),
    featureId: Type.String({ minLength: 1, maxLength: 255, description: "The feature's identifier" }),
    behaviour: Type.Enum([...USAGE_BEHAVIOURS], { description: 'SET replaces the period usage; DELTA adds to it (may be negative)' }),
    resourceId: Type.Optional(NullableString({ maxLength: 255 })),
    idempotencyKey: Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Required in a batch: the report counts once per key, across batches and single reports alike, so a batch can be resent whole',
    }),
  },
  { additionalProperties: false, title: 'ReportUsageBatchItem' },
);
export type ReportUsageBatchItem = Static<typeof ReportUsageBatchItem>;

export const ReportUsageBatchRequest = Type.Object(
  {
    reports: Type.Array(ReportUsageBatchItem, {
      minItems: 1,
      maxItems: USAGE_BATCH_MAX,
      description: `1 to ${USAGE_BATCH_MAX} usage reports, each answered on its own, in the same order`,
    }),
  },
  { additionalProperties: false, title: 'ReportUsageBatchRequest' },
);
export type ReportUsageBatchRequest = Static<typeof ReportUsageBatchRequest>;

export const USAGE_BATCH_STATUSES = ['accepted', 'duplicate', 'rejected'] as const;

export const ReportUsageBatchResult = Type.Object(
  {
    idempotencyKey: Type.String({ description: "The report's own key, as sent" }),
    status: Type.Enum([...USAGE_BATCH_STATUSES], {
      description:
        'accepted: counted by this request. duplicate: the key was counted before (by an earlier request, or earlier in this batch) ' +
        'for the same report; not counted again. rejected: not counted; code and detail say why',
    }),
    code: Type.Optional(Type.String({ description: 'rejected only: the code a single report would have answered with' })),
    detail: Type.Optional(Type.String({ description: 'rejected only: why, naming the field' })),
  },
  { title: 'ReportUsageBatchResult' },
);
export type ReportUsageBatchResult = Static<typeof ReportUsageBatchResult>;

export const ReportUsageBatchResponse = Type.Object(
  {
    accepted: Type.Integer({ description: 'How many reports this request counted' }),
    duplicates: Type.Integer(),
    rejected: Type.Integer(),
    results: Type.Array(ReportUsageBatchResult, { description: 'One per report, in the order sent' }),
  },
  { title: 'ReportUsageBatchResponse' },
);
export type ReportUsageBatchResponse = Static<typeof ReportUsageBatchResponse>;

export const ReportEventRequest = Type.Object(
  {
    customerId: Type.String({ minLength: 1, maxLength: 255 }),
    eventName: Type.String({ minLength: 1, maxLength: 255 }),
    idempotencyKey: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Unique per environment: an event sent again with the same key is accepted and counted once',
    }),
    timestamp: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'When the event happened: yyyy-MM-dd HH:mm:ss[.ffffff] in UTC, or an ISO 8601 date-time',
    }),
    properties: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
    resourceId: Type.Optional(NullableString({ maxLength: 255 })),
  },
  { additionalProperties: false, title: 'ReportEventRequest' },
);
export type ReportEventRequest = Static<typeof ReportEventRequest>;

export const ReportEventResponse = Type.Object(
  {
    customerId: Type.String(),
    eventName: Type.String(),
    idempotencyKey: Type.String(),
    timestamp: Type.String(),
    properties: Type.Record(Type.String(), Type.Unknown()),
    resourceId: Type.Union([Type.String(), Type.Null()]),
    orgId: Type.String(),
  },
  { title: 'ReportEventResponse' },
);
export type ReportEventResponse = Static<typeof ReportEventResponse>;

/** One message of GET /entitlements/changes/: the data of each event of the stream, as JSON. */
export const EntitlementChangeEvent = Type.Union(
  [
    Type.Object(
      {
        type: Type.Literal('ready'),
        resumed: Type.Boolean({
          description: "true: the stream resumed after the request's Last-Event-ID, and the changes missed since follow; false: what was cached before may be stale",
        }),
      },
      { description: 'The stream is live: changes from now on are announced' },
    ),
    Type.Object(
      {
        type: Type.Literal('customer'),
        customerId: Type.String(),
        entitlements: Type.Optional(
          Type.Array(EntitlementDetail, {
            description: "The customer's entitlements after the change, as GET /entitlements/ lists them; left out when Billow could not compute them (ask GET /entitlements/)",
          }),
        ),
      },
      { description: "This customer's entitlements or usage changed" },
    ),
    Type.Object(
      { type: Type.Literal('snapshot'), customerId: Type.String(), entitlements: Type.Array(EntitlementDetail) },
      { description: "A customer's stream only: the customer's entitlements as the stream starts (after a reset too), as GET /entitlements/ lists them" },
    ),
    Type.Object({ type: Type.Literal('environment') }, { description: "Every customer's entitlements may have changed (a plan was published to its subscribers)" }),
    Type.Object(
      { type: Type.Literal('reset') },
      { description: 'Changes may have been missed (Billow reconnected to its database, or the Last-Event-ID is too old to resume from): drop everything cached' },
    ),
  ],
  { title: 'EntitlementChangeEvent' },
);
export type EntitlementChangeEvent = Static<typeof EntitlementChangeEvent>;

export const CustomerChangesPath = Type.Object({ customerId: Type.String({ minLength: 1, maxLength: 255, description: "The customer's customerId" }) });
export type CustomerChangesPath = Static<typeof CustomerChangesPath>;

export const EntitlementChangeStream = Type.Unsafe<string>({
  description:
    'A server-sent event stream (text/event-stream) that stays open: one `data:` line of JSON per change (an EntitlementChangeEvent) with its `id:`, ' +
    '`ready` first, and a comment every 15 seconds to keep proxies from closing it. Sent again with `Last-Event-ID`, the stream resumes: ' +
    'the changes missed since that id follow `ready` (`resumed: true`), or, when this process cannot tell them (another process, too long ago), `ready` says `resumed: false` and a `reset` follows. ' +
    "Each `customer` event carries the customer's entitlements after the change; a customer's stream starts with a `snapshot` of them.",
  content: { 'text/event-stream': { schema: { type: 'string' } } },
});
