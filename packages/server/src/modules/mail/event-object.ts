/** Reading the object of a business event (snake_case, as its webhook carries it) for the email it causes. */

export const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

export const field = (object: Record<string, unknown>, key: string): Record<string, unknown> => (object[key] ?? {}) as Record<string, unknown>;

/** An instant the object writes as an ISO string; null when absent or not one. */
export function instant(value: unknown): Date | null {
  const at = typeof value === 'string' ? new Date(value) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
}

/** The object's total in minor units with its currency (`amount_total_units`, `currency`); null without them. */
export function totalOf(object: Record<string, unknown>): { minor: number; currency: string } | null {
  const minor = object.amount_total_units;
  const currency = text(object.currency);
  return typeof minor === 'number' && Number.isSafeInteger(minor) && currency ? { minor, currency: currency.toUpperCase() } : null;
}

/** The buyer's address in an event's object: its customer's email. */
export const recipientOf = (object: Record<string, unknown>): string | null => text(field(object, 'customer').email);
