import type { AuditAction, AuditEntry } from '@billow/contract';
import { words } from './format';
import { t, type MessageKey } from './i18n/language';

/**
 * What each change a service records by name means to a person: the audit log's words, in the
 * dashboard's language. Typed by the contract's list of actions, so a new action does not build
 * until it has its message.
 */
const ACTION_WORDS: Record<AuditAction, MessageKey> = {
  'seller_profile.updated': 'audit.seller_profile.updated',
  'email_settings.updated': 'audit.email_settings.updated',
  'payment_provider.updated': 'audit.payment_provider.updated',
  'payment_provider.removed': 'audit.payment_provider.removed',
  'api_key.created': 'audit.api_key.created',
  'api_key.revoked': 'audit.api_key.revoked',
  'webhook_endpoint.created': 'audit.webhook_endpoint.created',
  'webhook_endpoint.updated': 'audit.webhook_endpoint.updated',
  'webhook_endpoint.deleted': 'audit.webhook_endpoint.deleted',
  'webhook_endpoint.secret_rotated': 'audit.webhook_endpoint.secret_rotated',
  'invitation.created': 'audit.invitation.created',
  'invitation.revoked': 'audit.invitation.revoked',
  'member.role_changed': 'audit.member.role_changed',
  'member.removed': 'audit.member.removed',
  'test_clock.customer_attached': 'audit.test_clock.customer_attached',
  'license.instance_deactivated': 'audit.license.instance_deactivated',
  'analytics_settings.updated': 'audit.analytics_settings.updated',
};

/** Every named action with its words, in the contract's order (the log's filter). */
export function auditActionOptions(): Array<[AuditAction, string]> {
  return (Object.entries(ACTION_WORDS) as Array<[AuditAction, MessageKey]>).map(([action, key]) => [action, t(key)]);
}

/** The kinds of record, by a route's segment or the resource a change names. */
const NOUNS: Record<string, MessageKey> = {
  'api-keys': 'noun.apiKey',
  api_key: 'noun.apiKey',
  catalog: 'noun.catalog',
  products: 'noun.product',
  plans: 'noun.plan',
  features: 'noun.feature',
  prices: 'noun.price',
  file: 'noun.file',
  image: 'noun.image',
  settings: 'noun.settings',
  charges: 'noun.charge',
  checkout: 'noun.checkout',
  customers: 'noun.customer',
  licenses: 'noun.licenseKey',
  license: 'noun.licenseKey',
  instances: 'noun.machine',
  discounts: 'noun.discount',
  'email-settings': 'noun.emailSettings',
  email_settings: 'noun.emailSettings',
  analytics_settings: 'noun.reportingCurrency',
  invitations: 'noun.invitation',
  invitation: 'noun.invitation',
  invoices: 'noun.invoice',
  media: 'noun.upload',
  members: 'noun.member',
  member: 'noun.member',
  'payment-methods': 'noun.paymentMethod',
  'payment-provider': 'noun.paymentProvider',
  payment_provider: 'noun.paymentProvider',
  portal: 'noun.portal',
  'promotion-rules': 'noun.promotion',
  refunds: 'noun.refund',
  'seller-profile': 'noun.sellerProfile',
  seller_profile: 'noun.sellerProfile',
  subscriptions: 'noun.subscription',
  'test-clocks': 'noun.testClock',
  test_clock: 'noun.testClock',
  webhook: 'noun.webhook',
  endpoints: 'noun.webhookEndpoint',
  webhook_endpoint: 'noun.webhookEndpoint',
  logs: 'noun.webhookDelivery',
};

/** A route's last segment that says what was done to what the segment before names. */
const VERBS: Record<string, MessageKey> = {
  activate: 'verb.activated',
  advance: 'verb.advanced',
  archive: 'verb.archived',
  bulk: 'verb.set',
  cancel: 'verb.cancelled',
  create: 'verb.created',
  deactivate: 'verb.freed',
  default: 'verb.madeDefault',
  discard: 'verb.draftDiscarded',
  pay: 'verb.paid',
  publish: 'verb.published',
  resend: 'verb.sentAgain',
  'rotate-secret': 'verb.secretRotated',
  update: 'verb.changed',
};
const METHOD_VERBS: Record<string, MessageKey> = { POST: 'verb.created', PUT: 'verb.set', PATCH: 'verb.updated', DELETE: 'verb.deleted' };

/** Whole operations the rules would word wrongly. */
const OPERATION_WORDS: Record<string, MessageKey> = {
  'POST /api/v1/charges/': 'operation.chargeMade',
  'POST /api/v1/refunds/': 'operation.refundMade',
  'DELETE /api/v1/customers/:customerId/': 'operation.customerArchived',
  'POST /api/v1/portal/session/': 'operation.portalLink',
  'POST /api/v1/checkout/': 'operation.checkoutStarted',
  'POST /api/v1/media/': 'operation.fileUploaded',
  'POST /api/v1/media/upload/': 'operation.fileUploaded',
  'POST /api/v1/payment-methods/': 'operation.cardAdded',
  'DELETE /api/v1/payment-methods/:id/': 'operation.cardRemoved',
  'POST /api/v1/catalog/plans/:identifier/features/': 'operation.entitlementAdded',
  'PATCH /api/v1/catalog/plans/:identifier/features/:feature_id/': 'operation.entitlementChanged',
  'DELETE /api/v1/promotion-rules/:id/': 'operation.promotionEnded',
  'POST /api/v1/test-clocks/:id/customers/': 'operation.customerAttached',
  'POST /api/v1/webhook/endpoints/:id/replay/': 'operation.eventsReplayed',
  'POST /api/v1/payment-methods/:id/default/': 'operation.defaultCard',
  'POST /api/v1/payment-methods/stripe/': 'operation.cardAdded',
  'PATCH /api/v1/catalog/products/:pk/settings/': 'operation.productSettings',
  'POST /api/v1/catalog/plans/:identifier/prices/bulk/': 'operation.pricesSet',
  'DELETE /api/v1/catalog/plans/:identifier/prices/:currency/': 'operation.priceRemoved',
};

const OPERATION = /^(POST|PUT|PATCH|DELETE) \/api\/v1\/(\S*)$/;

function noun(segment: string | undefined): string {
  if (!segment) return t('noun.record');
  const key = NOUNS[segment];
  return key ? t(key) : words(segment);
}

/** A change an operation recorded (`PATCH /api/v1/customers/:customerId/`) in words: "Customer updated". */
function operationWords(method: string, path: string): string {
  const segments = path.split('/').filter((s) => s && !s.startsWith(':'));
  const last = segments[segments.length - 1];
  const verb = last !== undefined && segments.length > 1 ? VERBS[last] : undefined;
  const what = verb ? segments[segments.length - 2] : last;
  return t('audit.operation', { noun: noun(what), verb: t(verb ?? METHOD_VERBS[method] ?? 'verb.changed') });
}

/** An audit entry's action in words; an action this dashboard does not know yet still reads as words, never as a code. */
export function auditActionWords(action: string): string {
  if (action in ACTION_WORDS) return t(ACTION_WORDS[action as AuditAction]);
  const fixed = OPERATION_WORDS[action];
  if (fixed) return t(fixed);
  const operation = OPERATION.exec(action);
  return operation ? operationWords(operation[1]!, operation[2]!) : words(action);
}

/** The kind of record a change touched ("customers", "seller_profile") as a word. */
export function auditResourceWords(resource: string): string {
  return noun(resource);
}

/** How and where a change was made: "Dashboard (sandbox)", "API key sk_test_AbCd1234 (production)", "Dashboard (the team)". */
export function auditPlaceWords(entry: Pick<AuditEntry, 'actorType' | 'actorId' | 'environment'>): string {
  const how = entry.actorType === 'api_key' ? t('audit.apiKey', { id: entry.actorId ?? '' }) : t('audit.dashboard');
  const where = entry.environment === 'sandbox' ? t('audit.inSandbox') : entry.environment === 'production' ? t('audit.inProduction') : t('audit.theTeam');
  return t('audit.place', { how, where });
}
