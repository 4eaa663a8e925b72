import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/connect.js';
import { PREPARED, PREPARED_END } from '../src/db/prepared.js';
import { openTestDatabase } from './harness.js';

// The hottest statements are prepared once per PostgreSQL connection (src/db/prepared.ts).

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('statements marked PREPARED', () => {
  it('answer as any statement does, with their parameters', async () => {
    for (const n of [1, 2, 3]) {
      const { rows } = await sql<{ doubled: number }>`${PREPARED} SELECT ${n}::int * 2 AS doubled`.execute(database.db);
      expect(rows).toEqual([{ doubled: n * 2 }]);
    }
  });

  it.skipIf(!process.env.DATABASE_URL)('are prepared by name once per connection on PostgreSQL, and others are not', async () => {
    const prepared = await database.db.transaction().execute(async (tx) => {
      for (let i = 0; i < 3; i++) await sql`${PREPARED} SELECT ${i}::int AS n`.execute(tx);
      await sql`SELECT ${1}::int AS unmarked`.execute(tx);
      const { rows } = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(tx);
      return rows.map((row) => row.statement);
    });
    expect(prepared.filter((text) => text.includes('AS n'))).toHaveLength(1);
    expect(prepared.filter((text) => text.includes('unmarked'))).toHaveLength(0);
  });

  it.skipIf(!process.env.DATABASE_URL)('are prepared when a Kysely query ends with PREPARED_END', async () => {
    const prepared = await database.db.transaction().execute(async (tx) => {
      for (let i = 0; i < 3; i++) {
        const row = await tx.selectFrom('jobs').select('id').where('id', '=', -i).modifyEnd(PREPARED_END).executeTakeFirst();
        expect(row).toBeUndefined();
      }
      const { rows } = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(tx);
      return rows.map((row) => row.statement);
    });
    expect(prepared.filter((text) => text.includes('from "jobs"') && text.endsWith('/* prepared */'))).toHaveLength(1);
  });
});
