/**
 * A transaction's last steps (db/transaction.ts, decision 0124): what holds a lock others wait on
 * runs after the work, just before the commit, and is rolled back with it.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/connect.js';
import { beforeCommit, inTransaction, type Tx } from '../src/db/transaction.js';
import { openTestDatabase } from './harness.js';

let database: DatabaseHandle;
const table = `before_commit_probe_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  database = await openTestDatabase();
  await sql`create table ${sql.table(table)} (step text not null)`.execute(database.db);
});
afterAll(async () => {
  await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
  await database.close();
});

const record = (tx: Tx, step: string) => sql`insert into ${sql.table(table)} (step) values (${step})`.execute(tx);

async function recorded(): Promise<string[]> {
  const { rows } = await sql<{ step: string }>`select step from ${sql.table(table)}`.execute(database.db);
  return rows.map((r) => r.step);
}

describe('a transaction opened by inTransaction', () => {
  it('runs its last steps after the work, in the order they were added, a step added by a step included, and commits them', async () => {
    const order: string[] = [];
    const result = await inTransaction(database.db, async (tx) => {
      beforeCommit(tx, async () => {
        order.push('first');
        await record(tx, 'first');
        beforeCommit(tx, async () => void order.push('added by first'));
      });
      beforeCommit(tx, async () => void order.push('second'));
      await record(tx, 'work');
      order.push('work');
      return 'answer';
    });
    expect(result).toBe('answer');
    expect(order).toEqual(['work', 'first', 'second', 'added by first']);
    expect((await recorded()).sort()).toEqual(['first', 'work']);
  });

  it('runs none of them when the work throws, and keeps nothing', async () => {
    await sql`delete from ${sql.table(table)}`.execute(database.db);
    let ran = false;
    const work = inTransaction(database.db, async (tx) => {
      beforeCommit(tx, async () => void (ran = true));
      await record(tx, 'work');
      throw new Error('the work failed');
    });
    await expect(work).rejects.toThrow('the work failed');
    expect(ran).toBe(false);
    expect(await recorded()).toEqual([]);
  });

  it('rolls the work back when a last step throws', async () => {
    const work = inTransaction(database.db, async (tx) => {
      beforeCommit(tx, async () => {
        await record(tx, 'step');
        throw new Error('the step failed');
      });
      await record(tx, 'work');
    });
    await expect(work).rejects.toThrow('the step failed');
    expect(await recorded()).toEqual([]);
  });

  it('refuses a last step for a transaction it did not open', async () => {
    const refused = database.db.transaction().execute(async (tx) => beforeCommit(tx, async () => undefined));
    await expect(refused).rejects.toThrow('beforeCommit needs a transaction opened by inTransaction');
  });
});
