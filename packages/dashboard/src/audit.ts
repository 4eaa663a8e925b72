import type { AuditAction, AuditEntry } from '@billow/contract';
import { words } from './format';

/**
 * What each change a service records by name means to a person: the audit log's words.
 * Typed by the contract's list of actions, so a new action does not build until it has its words.
 */
const ACTION_WORDS: Record<AuditAction, string> = {
  'seller_profile.updated': 'Seller profile updated',
  'email_settings.updated': 'Email settings updated',
  'payment_provider.updated': 'Payment provider set',
  'payment_provider.removed': 'Payment provider removed',
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
  'webhook_endpoint.created': 'Webhook endpoint added',
  'webhook_endpoint.updated': 'Webhook endpoint changed',
  'webhook_endpoint.deleted': 'Webhook endpoint deleted',
  'webhook_endpoint.secret_rotated': "Webhook endpoint's secret rotated",
  'invitation.created': 'Member invited',
  'invitation.revoked': 'Invitation withdrawn',
  'member.role_changed': "Member's role changed",
  'member.removed': 'Member removed',
  'test_clock.customer_attached': 'Customer attached to a test clock',
  'license.instance_deactivated': 'License machine freed',
  'analytics_settings.updated': 'Reporting currency changed',
};

/** Every named action with its words, in the contract's order (the log's filter). */
export const AUDIT_ACTION_OPTIONS = Object.entries(ACTION_WORDS) as Array<[AuditAction, string]>;

/** The kinds of record, by a route's segment or the resource a change names. */
const NOUNS: Record<string, string> = {
  'api-keys': 'API key',
  api_key: 'API key',
  catalog: 'Catalog',
  products: 'Product',
  plans: 'Plan',
  features: 'Feature',
  prices: 'Price',
  file: 'File',
  image: 'Image',
  settings: 'Settings',
  charges: 'Charge',
  checkout: 'Checkout',
  customers: 'Customer',
  licenses: 'License key',
  license: 'License key',
  instances: 'Machine',
  discounts: 'Discount',
  'email-settings': 'Email settings',
  email_settings: 'Email settings',
  analytics_settings: 'Reporting currency',
  invitations: 'Invitation',
  invitation: 'Invitation',
  invoices: 'Invoice',
  media: 'Upload',
  members: 'Member',
  member: 'Member',
  'payment-methods': 'Payment method',
  'payment-provider': 'Payment provider',
  payment_provider: 'Payment provider',
  portal: 'Portal',
  'promotion-rules': 'Promotion',
  refunds: 'Refund',
  'seller-profile': 'Seller profile',
  seller_profile: 'Seller profile',
  subscriptions: 'Subscription',
  'test-clocks': 'Test clock',
  test_clock: 'Test clock',
  webhook: 'Webhook',
  endpoints: 'Webhook endpoint',
  webhook_endpoint: 'Webhook endpoint',
  logs: 'Webhook delivery',
};

/** A route's last segment that says what was done to what the segment before names. */
const VERBS: Record<string, string> = {
  activate: 'activated',
  advance: 'advanced',
  archive: 'archived',
  bulk: 'set',
  cancel: 'cancelled',
  create: 'created',
  deactivate: 'freed',
  default: 'made the default',
  discard: 'draft discarded',
  pay: 'paid',
  publish: 'published',
  resend: 'sent again',
  'rotate-secret': 'secret rotated',
  update: 'changed',
};
const METHOD_VERBS: Record<string, string> = { POST: 'created', PUT: 'set', PATCH: 'updated', DELETE: 'deleted' };

/** Whole operations the rules would word wrongly. */
const OPERATION_WORDS: Record<string, string> = {
  'POST /api/v1/charges/': 'Charge made',
  'POST /api/v1/refunds/': 'Refund made',
  'DELETE /api/v1/customers/:customerId/': 'Customer archived',
  'POST /api/v1/portal/session/': 'Portal link made',
  'POST /api/v1/checkout/': 'Checkout started',
  'POST /api/v1/media/': 'File uploaded',
  'POST /api/v1/media/upload/': 'File uploaded',
  'POST /api/v1/payment-methods/': 'Card added',
  'DELETE /api/v1/payment-methods/:id/': 'Card removed',
  'POST /api/v1/catalog/plans/:identifier/features/': 'Plan entitlement added',
  'PATCH /api/v1/catalog/plans/:identifier/features/:feature_id/': 'Plan entitlement changed',
  'DELETE /api/v1/promotion-rules/:id/': 'Promotion ended',
  'POST /api/v1/test-clocks/:id/customers/': 'Customer attached to a test clock',
  'POST /api/v1/webhook/endpoints/:id/replay/': 'Events sent again to a webhook endpoint',
  'POST /api/v1/payment-methods/:id/default/': 'Default card changed',
  'POST /api/v1/payment-methods/stripe/': 'Card added',
  'PATCH /api/v1/catalog/products/:pk/settings/': 'Product settings updated',
  'POST /api/v1/catalog/plans/:identifier/prices/bulk/': 'Prices set',
  'DELETE /api/v1/catalog/plans/:identifier/prices/:currency/': 'Price removed',
};

const OPERATION = /^(POST|PUT|PATCH|DELETE) \/api\/v1\/(\S*)$/;

function noun(segment: string | undefined): string {
  if (!segment) return 'Record';
  return NOUNS[segment] ?? words(segment);
}

/** A change an operation recorded (`PATCH /api/v1/customers/:customerId/`) in words: "Customer updated". */
function operationWords(method: string, path: string): string {
  const segments = path.split('/').filter((s) => s && !s.startsWith(':'));
  const last = segments[segments.length - 1];
  const verb = last !== undefined && segments.length > 1 ? VERBS[last] : undefined;
  const what = verb ? segments[segments.length - 2] : last;
  return `${noun(what)} ${verb ?? METHOD_VERBS[method] ?? 'changed'}`;
}

/** An audit entry's action in words; an action this dashboard does not know yet still reads as words, never as a code. */
export function auditActionWords(action: string): string {
  if (action in ACTION_WORDS) return ACTION_WORDS[action as AuditAction];
  const fixed = OPERATION_WORDS[action];
  if (fixed) return fixed;
  const operation = OPERATION.exec(action);
  return operation ? operationWords(operation[1]!, operation[2]!) : words(action);
}

/** The kind of record a change touched ("customers", "seller_profile") as a word. */
export function auditResourceWords(resource: string): string {
  return noun(resource);
}

const PLACES: Record<string, string> = { sandbox: 'sandbox', production: 'production' };

/** How and where a change was made: "Dashboard (sandbox)", "API key sk_test_AbCd1234 (production)", "Dashboard (the team)". */
export function auditPlaceWords(entry: Pick<AuditEntry, 'actorType' | 'actorId' | 'environment'>): string {
  const how = entry.actorType === 'api_key' ? `API key ${entry.actorId}` : 'Dashboard';
  return `${how} (${entry.environment ? PLACES[entry.environment] : 'the team'})`;
}
