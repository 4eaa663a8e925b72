import { Type, type Static } from 'typebox';
import { PageQuery, Paginated, Timestamp } from './common.js';

/** The 19 event types of the reference, and ours. */
export const WEBHOOK_EVENT_TYPES = [
  'checkout.completed',
  'customer.created',
  'customer.updated',
  'order.created',
  'order.updated',
  'order.refunded',
  'subscription.created',
  'subscription.updated',
  'subscription.cancelled',
  'subscription.plan_changed',
  'feature.usage_alert',
  'invoice.created',
  'invoice.paid',
  'invoice.payment_failed',
  'refund.created',
  'refund.updated',
  'payment_method.created',
  'payment_method.updated',
  'payment_method.deleted',
  'webhook_endpoint.disabled',
  'seller_profile.updated',
  'credit_note.created',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

// The same schema, typed as the union of the names: built by map(), it typed as '*' alone, and a typed client could subscribe to nothing else.
const EventType = Type.Unsafe<'*' | WebhookEventType>(Type.Union([Type.Literal('*'), ...WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t))]));
const EventTypes = Type.Array(EventType, {
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length + 1,
  uniqueItems: true,
  description: 'The event types sent to the endpoint; `["*"]` (the default) sends every type',
});

export const WebhookEndpoint = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    object: Type.Literal('webhook_endpoint'),
    url: Type.String(),
    description: Type.String(),
    eventTypes: Type.Array(Type.String()),
    enabled: Type.Boolean(),
    disabledReason: Type.Union([Type.String(), Type.Null()], {
      description: 'Why Billow disabled it (a receiver answering 410 Gone, or failing for days); null when enabled or disabled by the seller',
    }),
    standardSignature: Type.Boolean({
      description: 'Also sign in the Standard Webhooks form (base64), after the reference\'s hex signature in `webhook-signature`',
    }),
    previousSecretExpiresAt: Type.Union([Timestamp, Type.Null()], {
      description: 'After a rotation: until when deliveries carry a signature with the previous secret too',
    }),
    createdOn: Timestamp,
    modifiedOn: Timestamp,
  },
  { title: 'WebhookEndpoint' },
);
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...WebhookEndpoint.properties,
    secret: Type.Union([Type.String(), Type.Null()], {
      description: 'kq_whsec_…: shown only now; it signs every delivery to this endpoint. Null in an answer replayed for a repeated Idempotency-Key',
    }),
  },
  { title: 'WebhookEndpointWithSecret' },
);

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'https:// (production); sandbox also takes http:// and local addresses' });
const Description = Type.String({ maxLength: 500 });

const EndpointSettings = {
  description: Type.Optional(Description),
  eventTypes: Type.Optional(EventTypes),
  enabled: Type.Optional(Type.Boolean()),
  standardSignature: Type.Optional(Type.Boolean()),
};

export const WebhookEndpointCreate = Type.Object({ url: Url, ...EndpointSettings }, { additionalProperties: false, title: 'WebhookEndpointCreate' });
export type WebhookEndpointCreate = Static<typeof WebhookEndpointCreate>;

export const WebhookEndpointUpdate = Type.Object(
  { url: Type.Optional(Url), ...EndpointSettings },
  { additionalProperties: false, title: 'WebhookEndpointUpdate' },
);
export type WebhookEndpointUpdate = Static<typeof WebhookEndpointUpdate>;

export const WebhookSecretRotation = Type.Object(
  {
    gracePeriodHours: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 168, description: 'How long the previous secret keeps signing too (default 24; 0 ends it now)' }),
    ),
  },
  { additionalProperties: false, title: 'WebhookSecretRotation' },
);
export type WebhookSecretRotation = Static<typeof WebhookSecretRotation>;

export const WebhookReplay = Type.Object(
  {
    since: Type.String({ format: 'date-time', description: 'Events created at or after this instant (at most 30 days ago) are sent again' }),
    until: Type.Optional(Type.String({ format: 'date-time', description: 'And before this one (now by default)' })),
  },
  { additionalProperties: false, title: 'WebhookReplay' },
);
export type WebhookReplay = Static<typeof WebhookReplay>;

export const WebhookQueued = Type.Object(
  { queued: Type.Integer({ description: 'Deliveries queued; they go out within a second or so' }) },
  { title: 'WebhookQueued' },
);

export const WebhookEndpointPath = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const WebhookEndpointListQuery = Type.Object({ ...PageQuery.properties });
export const WebhookEndpointList = Paginated(WebhookEndpoint, 'WebhookEndpointList');

/** One delivery attempt, as DOMAIN §2.12's log rows. */
export const WebhookLog = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    eventId: Type.String({ description: 'The event, shared by every attempt to deliver it (the webhook-id header)' }),
    endpoint: Type.String({ format: 'uuid' }),
    eventType: Type.String(),
    statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'Null when no answer came (timeout, refused connection)' }),
    isSuccess: Type.Boolean(),
    retryCount: Type.Integer({ description: '0 for the first attempt' }),
    lastAttempt: Timestamp,
    createdOn: Timestamp,
    payload: Type.Record(Type.String(), Type.Unknown(), { description: 'The envelope that was sent' }),
  },
  { title: 'WebhookLog' },
);

export const WebhookLogDetail = Type.Object(
  {
    ...WebhookLog.properties,
    url: Type.String(),
    requestHeaders: Type.Record(Type.String(), Type.String()),
    requestBody: Type.String({ description: 'Exactly the bytes that were signed and sent' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'What went wrong when no answer, or no 2xx, came' }),
    responseExcerpt: Type.String({ description: 'The first 2 KiB of the answer' }),
    durationMs: Type.Integer(),
  },
  { title: 'WebhookLogDetail' },
);

const DateFilter = (description: string) =>
  Type.Optional(Type.String({ maxLength: 40, description: `${description}: a date (YYYY-MM-DD) or an ISO 8601 date-time; clamped to the last 30 days` }));

export const WebhookLogListQuery = Type.Object({
  ...PageQuery.properties,
  start_date: DateFilter('Attempts made on or after'),
  end_date: DateFilter('Attempts made on or before'),
  status: Type.Optional(Type.Union([Type.Literal('success'), Type.Literal('failed')])),
  event_type: Type.Optional(Type.String({ maxLength: 100 })),
  event_id: Type.Optional(Type.String({ maxLength: 100 })),
  endpoint: Type.Optional(Type.String({ maxLength: 100, description: 'An endpoint id' })),
});
export type WebhookLogListQuery = Static<typeof WebhookLogListQuery>;
export const WebhookLogPath = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const WebhookLogList = Paginated(WebhookLog, 'WebhookLogList');
