import type { Executor } from '../../db/transaction.js';
import { camelToSnake, renameKeysDeep } from '../../lib/casing.js';
import { currentActor } from '../../lib/actor.js';
import { newId } from '../../lib/crypto.js';
import type { RawBuilder } from 'kysely';
import { changeWithEvents, insertEvent, insertEvents, type EventRowInput } from './repo.js';

/** The `object` of an event's data where it is not the event type's first word. */
const OBJECT_KINDS: Record<string, string> = {
  checkout: 'checkout_session',
  feature: 'feature_usage_alert',
};

/** `checkout.completed` → `checkout_session`, `payment_method.created` → `payment_method`. */
export function objectKindOf(type: string): string {
  const head = type.split('.', 1)[0] ?? type;
  return OBJECT_KINDS[head] ?? head;
}

/** Timestamps in event envelopes as the reference writes them: UTC, whole seconds (2026-04-01T17:28:39Z). */
export function eventTimestamp(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * A value as webhook payloads carry it: keys in snake_case, deeply, except the
 * contents of `metadata` (the seller's, kept as given); dates as ISO strings;
 * undefined fields left out.
 */
export function snakeCaseKeys(value: unknown): unknown {
  return renameKeysDeep(toJson(value), camelToSnake);
}

function toJson(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : toJson(item)));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (inner !== undefined) out[key] = toJson(inner);
  }
  return out;
}

export interface EventInput {
  environmentId: string;
  organizationId: string;
  /** As in webhook-events.json, e.g. `payment_method.created`. */
  type: string;
  /** The object the event is about (camelCase or snake_case keys; written in snake_case). */
  data: Record<string, unknown>;
  /** Old values of the fields that changed, for update-type events. */
  previousAttributes?: Record<string, unknown>;
  at: Date;
}

/**
 * Writes a business event in the caller's transaction, as the envelope webhook
 * delivery will send:
 *
 *     { id, type, created_at, data: { object: { id, object, …, organization }, previous_attributes? } }
 *
 * `data.object.object` (the resource kind) and `data.object.organization` are
 * filled in when the caller leaves them out. Returns the event id, which is also
 * the `webhook-id` of every delivery of it.
 */
export async function recordEvent(tx: Executor, event: EventInput): Promise<string> {
  const row = eventRow(event);
  await insertEvent(tx, row);
  return row.id;
}

/** Several events in one statement, in the order given; returns their ids. */
export async function recordEvents(tx: Executor, events: EventInput[]): Promise<string[]> {
  const rows = events.map(eventRow);
  await insertEvents(tx, rows);
  return rows.map((row) => row.id);
}

/**
 * `change` (a data-modifying statement from a repo, without RETURNING) and the
 * events it causes, as one statement: atomic without a transaction around it, and
 * one round trip. Returns the events' ids.
 */
export async function changeRecordingEvents(db: Executor, change: RawBuilder<unknown>, events: EventInput[]): Promise<string[]> {
  const rows = events.map(eventRow);
  await changeWithEvents(db, change, rows);
  return rows.map((row) => row.id);
}

function eventRow(event: EventInput): EventRowInput {
  const id = newId();
  const fields = snakeCaseKeys(event.data) as Record<string, unknown>;
  const object: Record<string, unknown> = {};
  if ('id' in fields) object.id = fields.id;
  object.object = typeof fields.object === 'string' ? fields.object : objectKindOf(event.type);
  Object.assign(object, fields, { object: object.object });
  if (object.organization === undefined) object.organization = event.organizationId;
  const data: Record<string, unknown> = { object };
  if (event.previousAttributes !== undefined) data.previous_attributes = snakeCaseKeys(event.previousAttributes);
  return {
    id,
    environmentId: event.environmentId,
    organizationId: event.organizationId,
    type: event.type,
    payload: { id, type: event.type, created_at: eventTimestamp(event.at), data },
    orderingKey: object.id === undefined || object.id === null ? null : String(object.id),
    at: event.at,
    actor: currentActor(),
    customerId: customerIdOf(object),
  };
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const fieldOf = (value: unknown, name: string): unknown => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined);

/**
 * The customerId of the customer an event is about, as its object carries it: its
 * `customer` (an order, an invoice, a subscription, a refund), its `buyer` (a credit note) or,
 * for a customer itself, its own `customer_id` (an order's own `customer_id` is Billow's row
 * id, not the seller's). The migration 20261208000000 reads old events the same way.
 */
export function customerIdOf(object: Record<string, unknown>): string | null {
  const own = object.object === 'customer' ? textOf(object.customer_id) : null;
  return textOf(fieldOf(object.customer, 'customer_id')) ?? textOf(fieldOf(object.buyer, 'customer_id')) ?? own;
}
