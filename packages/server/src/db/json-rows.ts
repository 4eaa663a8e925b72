/**
 * Rows read whole as JSON (`to_jsonb(t)`), so that one statement can bring back rows of
 * several tables: as pg returns them, but for timestamps, which JSON carries as text and
 * which are turned back into Dates here. bigint columns are numbers either way (connect.ts).
 */
export function rowFromJson<T>(json: Record<string, unknown> | null | undefined, timestamps: readonly string[]): T | undefined {
  if (!json) return undefined;
  for (const column of timestamps) {
    const value = json[column];
    if (typeof value === 'string') json[column] = new Date(value);
  }
  return json as T;
}

/** Timestamp columns of the tables read this way. */
export const TIMESTAMP_COLUMNS = {
  products: ['created_at', 'modified_at', 'archived_at'],
  plans: ['created_at', 'archived_at'],
  plan_versions: ['created_at', 'modified_at', 'published_at'],
  plan_prices: [],
  payment_methods: ['created_at', 'modified_at', 'deleted_at'],
  customers: ['created_at', 'modified_at', 'archived_at'],
  payment_intents: ['created_at', 'settled_at', 'action_expires_at'],
} as const satisfies Record<string, readonly string[]>;
