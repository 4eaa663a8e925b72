import type { Executor } from '../../db/transaction.js';
import { slugify } from '../../lib/slug.js';
import { identifiersLike, type SluggedTable } from './repo.js';

/** A free identifier for `name` in the environment: its slug, or the slug with -2, -3, ... */
export async function freeIdentifier(
  db: Executor,
  table: SluggedTable,
  environmentId: string,
  name: string,
): Promise<string> {
  const base = slugify(name, table.slice(0, -1));
  const taken = await identifiersLike(db, table, environmentId, base);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
