import type { WebhookEventType } from '@billow/contract';
import { words } from './format';

/**
 * What each event type means to a person: the one place every page that lists events
 * (Home, webhook endpoints and deliveries) takes its words from. Typed by the contract's
 * list of event types, so a new type does not build until it has its label here.
 */
const EVENT_LABELS: Record<WebhookEventType, string> = {
  'checkout.completed': 'Checkout completed',
  'customer.created': 'Customer created',
  'customer.updated': 'Customer updated',
  'order.created': 'Order placed',
  'order.updated': 'Order updated',
  'order.refunded': 'Order refunded',
  'subscription.created': 'Subscription started',
  'subscription.updated': 'Subscription updated',
  'subscription.cancelled': 'Subscription cancelled',
  'subscription.plan_changed': 'Subscription changed plan',
  'feature.usage_alert': 'Usage alert',
  'invoice.created': 'Invoice created',
  'invoice.paid': 'Invoice paid',
  'invoice.payment_failed': 'Invoice payment failed',
  'refund.created': 'Refund made',
  'refund.updated': 'Refund updated',
  'payment_method.created': 'Card added',
  'payment_method.updated': 'Default card changed',
  'payment_method.deleted': 'Card removed',
  'webhook_endpoint.disabled': 'Webhook endpoint disabled',
  'seller_profile.updated': 'Seller profile updated',
  'credit_note.created': 'Credit note issued',
};

/** Every event type with its label, in the contract's order (for choosing an endpoint's events). */
export const EVENT_TYPE_OPTIONS = Object.entries(EVENT_LABELS) as Array<[WebhookEventType, string]>;

/** An event type as words; a type this dashboard does not know yet still reads as words, never as a code. */
export function eventLabel(type: string | null | undefined): string {
  if (!type) return '—';
  if (type === '*') return 'Every event';
  return (EVENT_LABELS as Record<string, string>)[type] ?? words(type);
}

/** The event types an endpoint receives, as one line of words. */
export function eventTypesLabel(types: readonly string[]): string {
  return types.includes('*') ? 'Every event' : types.map(eventLabel).join(', ');
}

const OBJECT_LABELS: Record<string, string> = { customer: 'customer', order: 'order', subscription: 'subscription', invoice: 'invoice', refund: 'refund', credit_note: 'credit note', payment_method: 'payment method', checkout_session: 'checkout', webhook_endpoint: 'webhook endpoint' };

/** The kind of an event's object as a word ("credit note"). */
export function objectLabel(kind: string | null | undefined): string {
  if (!kind) return '';
  return OBJECT_LABELS[kind] ?? words(kind).toLowerCase();
}

const OBJECT_WORDS: Record<string, string> = {
  customer: 'Customer',
  payment_method: 'Card',
  order: 'Order',
  subscription: 'Subscription',
  invoice: 'Invoice',
  refund: 'Refund',
  credit_note: 'Credit note',
  checkout_session: 'Checkout',
  feature_usage_alert: 'Usage alert',
};

/** The kind of an event's object as a capitalised word, for a link to it ("Order"). */
export function objectWord(objectType: string | null): string {
  return (objectType && OBJECT_WORDS[objectType]) ?? 'Record';
}

/** Who caused an event, in words: the API and background work cause most and are not named. */
export function actorWords(actor: string | null): string {
  if (actor === 'customer_portal') return 'The customer, in the portal';
  return actor ? 'Someone else' : 'Billow or your API';
}
