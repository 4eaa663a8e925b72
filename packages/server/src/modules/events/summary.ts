import type { CustomerEvent } from '@billow/contract';

/** An event as a list shows it (the Home page's recent events, a customer's timeline): its type, its object, who and when. */
export type EventSummary = CustomerEvent;

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : null);

export function summarizeEvent(row: { id: string; type: string; payload: unknown; actor: string | null; created_at: Date }): EventSummary {
  const object = ((row.payload as { data?: { object?: Record<string, unknown> } }).data?.object ?? {}) as Record<string, unknown>;
  return {
    id: row.id,
    type: row.type,
    objectType: text(object.object),
    objectId: text(object.id),
    actor: row.actor,
    createdOn: row.created_at.toISOString(),
  };
}
