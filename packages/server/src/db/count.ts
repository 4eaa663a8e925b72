import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from './transaction.js';

/**
 * The rows of `rows` (a filtered list, without its order or page), counted exactly, or
 * with `upTo` only up to that many (decision 0089): the count reads at most `upTo + 1`
 * rows and says whether there were more. A capped count of a million rows costs what
 * reading ten thousand index entries costs; an exact one reads them all.
 */
export async function countRows<DB, TB extends keyof DB>(
  db: Executor,
  rows: SelectQueryBuilder<DB, TB, object>,
  upTo: number | null,
): Promise<{ count: number; capped: boolean }> {
  const listed = rows.select(sql<number>`1`.as('one'));
  const limited = upTo === null ? listed : listed.limit(upTo + 1);
  const row = await db
    .selectFrom(limited.as('listed'))
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(row.n);
  return upTo !== null && n > upTo ? { count: upTo, capped: true } : { count: n, capped: false };
}
