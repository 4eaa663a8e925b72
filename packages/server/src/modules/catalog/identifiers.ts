import type { Executor } from '../../db/transaction.js';
import { slugify } from '../../lib/slug.js';

type SluggedTable = 'products' | 'features' | 'plans';

/** A free identifier for `name` in the environment: its slug, or the slug with -2, -3, ... */
export async function freeIdentifier(
  db: Executor,
  table: SluggedTable,
  environmentId: string,
  name: string,
): Promise<string> {
  const base = slugify(name, table.slice(0, -1));
  const rows = await db
    .selectFrom(table)
    .select('identifier')
    .where('environment_id', '=', environmentId)
    .where((eb) => eb.or([eb('identifier', '=', base), eb('identifier', 'like', `${base}-%`)]))
    .execute();
  const taken = new Set(rows.map((r) => r.identifier));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
