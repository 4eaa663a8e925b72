import type { WebhookEventType } from '@billow/contract';
import { words } from './format';
import { hasMessage, t, type MessageKey } from './i18n/language';

/**
 * What each event type means to a person: the one place every page that lists events
 * (Home, webhook endpoints and deliveries) takes its words from, in the dashboard's language
 * (the catalogues' `event.*`). Typed by the contract's list of event types, so a new type does
 * not build until it has its message here.
 */
const EVENT_LABELS: Record<WebhookEventType, MessageKey> = {
  'checkout.completed': 'event.checkout.completed',
  'customer.created': 'event.customer.created',
  'customer.updated': 'event.customer.updated',
  'order.created': 'event.order.created',
  'order.updated': 'event.order.updated',
  'order.refunded': 'event.order.refunded',
  'subscription.created': 'event.subscription.created',
  'subscription.updated': 'event.subscription.updated',
  'subscription.cancelled': 'event.subscription.cancelled',
  'subscription.plan_changed': 'event.subscription.plan_changed',
  'feature.usage_alert': 'event.feature.usage_alert',
  'invoice.created': 'event.invoice.created',
  'invoice.paid': 'event.invoice.paid',
  'invoice.payment_failed': 'event.invoice.payment_failed',
  'refund.created': 'event.refund.created',
  'refund.updated': 'event.refund.updated',
  'payment_method.created': 'event.payment_method.created',
  'payment_method.updated': 'event.payment_method.updated',
  'payment_method.deleted': 'event.payment_method.deleted',
  'webhook_endpoint.disabled': 'event.webhook_endpoint.disabled',
  'seller_profile.updated': 'event.seller_profile.updated',
  'credit_note.created': 'event.credit_note.created',
};

/** Every event type with its label, in the contract's order (for choosing an endpoint's events). */
export function eventTypeOptions(): Array<[WebhookEventType, string]> {
  return (Object.entries(EVENT_LABELS) as Array<[WebhookEventType, MessageKey]>).map(([type, key]) => [type, t(key)]);
}

/** An event type as words; a type this dashboard does not know yet still reads as words, never as a code. */
export function eventLabel(type: string | null | undefined): string {
  if (!type) return '—';
  if (type === '*') return t('event.every');
  const key = (EVENT_LABELS as Record<string, MessageKey | undefined>)[type];
  return key ? t(key) : words(type);
}

/** The event types an endpoint receives, as one line of words. */
export function eventTypesLabel(types: readonly string[]): string {
  return types.includes('*') ? t('event.every') : types.map(eventLabel).join(', ');
}

/** The kind of an event's object as a word ("credit note"). */
export function objectLabel(kind: string | null | undefined): string {
  if (!kind) return '';
  const key = `object.${kind}`;
  return hasMessage(key) ? t(key) : words(kind).toLowerCase();
}

/** The kind of an event's object as a capitalised word, for a link to it ("Order"). */
export function objectWord(objectType: string | null): string {
  const key = `objectWord.${objectType ?? ''}`;
  return hasMessage(key) ? t(key) : t('objectWord.record');
}

/** Who caused an event, in words: the API and background work cause most and are not named. */
export function actorWords(actor: string | null): string {
  if (actor === 'customer_portal') return t('actor.portal');
  return actor ? t('actor.someoneElse') : t('actor.billow');
}
