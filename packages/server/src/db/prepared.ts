import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type pg from 'pg';

/**
 * Statements of the hottest paths (entitlement reads, usage writes) are parsed and
 * planned once per PostgreSQL connection and then only bound and executed: they
 * start with this marker, and the pool's clients send them as named prepared
 * statements. Only statements whose text never varies may carry it: the name is
 * derived from the text. PGlite ignores it (a comment).
 */
const MARKER = '/* prepared */ ';

export const PREPARED: RawBuilder<unknown> = sql.raw(MARKER);

const nameOf = (text: string) => `billow_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;

type Query = (text: unknown, values?: unknown) => Promise<unknown>;

/** Makes the pool's clients send marked statements as named prepared statements (once wrapped, stays wrapped). */
export function preparingPool(pool: pg.Pool): pg.Pool {
  const names = new Map<string, string>();
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as Query;
    (client as unknown as { query: Query }).query = (text, values) => {
      if (typeof text !== 'string' || !text.startsWith(MARKER)) return query(text, values);
      let name = names.get(text);
      if (!name) names.set(text, (name = nameOf(text)));
      return query({ name, text, values });
    };
  });
  return pool;
}
