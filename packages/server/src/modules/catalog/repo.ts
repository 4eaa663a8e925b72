import type { Executor } from '../../db/transaction.js';

export type SluggedTable = 'products' | 'features' | 'plans';

/** The identifiers of `table` in the environment that are `base` or start with `base-`. */
export async function identifiersLike(db: Executor, table: SluggedTable, environmentId: string, base: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom(table)
    .select('identifier')
    .where('environment_id', '=', environmentId)
    .where((eb) => eb.or([eb('identifier', '=', base), eb('identifier', 'like', `${base}-%`)]))
    .execute();
  return new Set(rows.map((r) => r.identifier));
}
