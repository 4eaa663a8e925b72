/**
 * Webhook event types as a person reads them (no wire code on a page): the labels of the
 * types docs/webhooks.md lists; a type it does not know yet reads as its object's change.
 */
const EVENT_LABELS: Record<string, string> = {
  'customer.created': 'Customer created',
  'customer.updated': 'Customer details changed',
  'payment_method.created': 'Card added',
  'payment_method.updated': 'Default card changed',
  'payment_method.deleted': 'Card removed',
  'order.created': 'Order placed',
  'order.updated': 'Order updated',
  'order.refunded': 'Order refunded',
  'subscription.created': 'Subscription started',
  'subscription.updated': 'Subscription updated',
  'subscription.plan_changed': 'Plan changed',
  'subscription.cancelled': 'Subscription ended',
  'invoice.created': 'Invoice issued',
  'invoice.paid': 'Invoice paid',
  'invoice.payment_failed': 'Payment failed',
  'refund.created': 'Refund started',
  'refund.updated': 'Refund status changed',
  'credit_note.created': 'Credit note issued',
  'feature.usage_alert': 'Usage alert',
  'checkout.completed': 'Checkout completed',
};

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

export function eventLabel(type: string): string {
  const known = EVENT_LABELS[type];
  if (known) return known;
  const object = OBJECT_WORDS[type.split('.', 1)[0] ?? ''];
  return object ? `${object} changed` : 'Other event';
}

export function objectWord(objectType: string | null): string {
  return (objectType && OBJECT_WORDS[objectType]) ?? 'Record';
}

/** Who caused an event, in words: the API and background work cause most and are not named. */
export function actorWords(actor: string | null): string {
  if (actor === 'customer_portal') return 'The customer, in the portal';
  return actor ? 'Someone else' : 'Billow or your API';
}
