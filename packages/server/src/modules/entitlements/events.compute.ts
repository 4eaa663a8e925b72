/**
 * Raw usage events (POST /report/event/) and the RAW_EVENTS meters that
 * aggregate them. Pure.
 *
 * Which events a meter counts:
 * - A filter that names the event (`{"property": "eventName", "value": "api_call"}`,
 *   or a record `{"eventName": "api_call"}`) selects events of that name.
 * - Without one, the meter counts the events addressed to it: named after the
 *   feature's identifier, or carrying the identifier in `properties.featureId`
 *   (the reference's example event, `{"featureId": "api-usage", "value": 2}`).
 * - Every other filter is an equality on a property: `{"property": "model",
 *   "value": "large"}` or `{"model": "large"}`; all must hold.
 * Property names are compared in camelCase, the form request bodies are
 * stored in (`token_count` and `tokenCount` are the same property).
 *
 * How: COUNT counts events; SUM, MAX, MIN and LATEST (newest by timestamp)
 * take the numeric values of `field`; UNIQUE_COUNT counts distinct values of
 * `field`. Only events whose timestamp falls in the current reset period
 * count, so events may arrive late or out of order.
 */
import { snakeToCamel } from '../../lib/casing.js';
import { AGGREGATIONS, type Aggregation, type RawMeter } from './compute.js';

const EVENT_NAME_KEYS = new Set(['eventName', 'event_name', 'event']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The meter of a RAW_EVENTS feature, from the feature's stored `meter`. */
export function rawMeterOf(meter: unknown): RawMeter {
  const spec = isRecord(meter) ? meter : {};
  const aggregation = isRecord(spec.aggregation) ? spec.aggregation : {};
  const fn = (AGGREGATIONS as readonly unknown[]).includes(aggregation.function)
    ? (aggregation.function as Aggregation)
    : 'COUNT';
  const field = typeof aggregation.field === 'string' && aggregation.field !== '' ? snakeToCamel(aggregation.field) : null;
  let eventName: string | null = null;
  const properties: Record<string, unknown> = {};
  const filters = Array.isArray(spec.filters) ? spec.filters.filter(isRecord) : [];
  for (const filter of filters) {
    const pairs: Array<[string, unknown]> =
      typeof filter.property === 'string' ? [[filter.property, filter.value]] : Object.entries(filter);
    for (const [name, value] of pairs) {
      if (EVENT_NAME_KEYS.has(name)) eventName = String(value);
      else properties[snakeToCamel(name)] = value;
    }
  }
  // The catalog requires a field for every aggregation but COUNT; `value` is the reference's example property.
  return { aggregation: fn, field: fn === 'COUNT' ? null : (field ?? 'value'), eventName, properties };
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An event timestamp: `yyyy-MM-dd HH:mm:ss[.ffffff]` in UTC as the reference
 * sends it (`T` accepted for the space), or an ISO 8601 date-time with a zone.
 * Returns the instant and its text in UTC with the microseconds kept (what
 * PostgreSQL stores), or null when it is not a real date and time.
 */
export function parseEventTimestamp(text: string): { at: Date; text: string } | null {
  const match = TIMESTAMP.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s = '00', fraction = '', zone] = match;
  const parts = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const [year, month, day, hour, minute, second] = parts;
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const real =
    year >= 1000 &&
    local.getUTCFullYear() === year &&
    local.getUTCMonth() === month - 1 &&
    local.getUTCDate() === day &&
    local.getUTCHours() === hour &&
    local.getUTCMinutes() === minute &&
    local.getUTCSeconds() === second;
  if (!real) return null;
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
    if (Math.abs(offsetMinutes) > 18 * 60) return null;
  }
  const micros = fraction.padEnd(6, '0').slice(0, 6);
  const utc = new Date(local.getTime() - offsetMinutes * 60_000);
  const at = new Date(utc.getTime() + Math.floor(Number(micros) / 1000));
  return { at, text: `${utc.toISOString().slice(0, 19).replace('T', ' ')}.${micros}+00` };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The idempotency key as the reference echoes it: a UUID without its dashes; any other key as given. */
export function echoedEventKey(key: string): string {
  return UUID.test(key) ? key.replace(/-/g, '').toLowerCase() : key;
}
