import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { TestClocksTable } from '../../db/schema.js';

export type TestClockRow = Selectable<TestClocksTable>;
export type TestClockView = TestClockRow & { customer_count: number };

export async function insertTestClock(db: Executor, row: Insertable<TestClocksTable>): Promise<TestClockRow> {
  return db.insertInto('test_clocks').values(row).returningAll().executeTakeFirstOrThrow();
}

function withCustomerCount(db: Executor) {
  return db
    .selectFrom('test_clocks as t')
    .selectAll('t')
    .select((eb) =>
      eb
        .selectFrom('customers as c')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('c.test_clock_id', '=', 't.id')
        .as('customer_count'),
    )
    .where('t.deleted_at', 'is', null);
}

function counted(row: TestClockRow & { customer_count: string | number | null }): TestClockView {
  return { ...row, customer_count: Number(row.customer_count ?? 0) };
}

export async function findTestClock(db: Executor, environmentId: string, id: string): Promise<TestClockView | undefined> {
  const row = await withCustomerCount(db).where('t.environment_id', '=', environmentId).where('t.id', '=', id).executeTakeFirst();
  return row ? counted(row) : undefined;
}

export async function lockTestClock(db: Executor, environmentId: string, id: string): Promise<TestClockRow | undefined> {
  return db
    .selectFrom('test_clocks')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** A clock by id alone, for the job that advances it. */
export async function findTestClockById(db: Executor, id: string): Promise<TestClockRow | undefined> {
  return db.selectFrom('test_clocks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countTestClocks(db: Executor, environmentId: string): Promise<number> {
  const row = await db
    .selectFrom('test_clocks')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('environment_id', '=', environmentId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listTestClocks(db: Executor, environmentId: string, limit: number, offset: number): Promise<TestClockView[]> {
  const rows = await withCustomerCount(db).where('t.environment_id', '=', environmentId).orderBy('t.seq', 'desc').limit(limit).offset(offset).execute();
  return rows.map(counted);
}

export async function updateTestClock(db: Executor, id: string, changes: Partial<Insertable<TestClocksTable>>): Promise<void> {
  await db.updateTable('test_clocks').set(changes).where('id', '=', id).execute();
}

/**
 * Changes the clock only while its advance to `target` is in one of the states `from`
 * (advancing, unless told): a run of an advance that another run already finished (a job
 * taken over when its lease ran out), or that a later advance replaced, writes nothing.
 * True when the clock was changed.
 */
export async function updateAdvancingClock(
  db: Executor,
  id: string,
  target: Date,
  changes: Partial<Insertable<TestClocksTable>>,
  from: readonly TestClocksTable['status'][] = ['advancing'],
): Promise<boolean> {
  const result = await db
    .updateTable('test_clocks')
    .set(changes)
    .where('id', '=', id)
    .where('status', 'in', from)
    .where('target_time', '=', target)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The invoices of the clock's customers, newest first: what its advances billed (decision 0087). */
export async function clockInvoices(db: Executor, environmentId: string, testClockId: string, limit: number, offset: number) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('customers as c', 'c.id', 'i.customer_id')
    .select(['i.id', 'c.customer_id', 'i.subscription_id', 'i.status', 'i.currency', 'i.total_minor', 'i.attempt_count', 'i.period_start', 'i.period_end', 'i.issued_at', 'i.paid_at'])
    .where('i.environment_id', '=', environmentId)
    .where('c.test_clock_id', '=', testClockId)
    .orderBy('i.issued_at', 'desc')
    .orderBy('i.seq', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countClockInvoices(db: Executor, environmentId: string, testClockId: string): Promise<number> {
  const row = await db
    .selectFrom('invoices as i')
    .innerJoin('customers as c', 'c.id', 'i.customer_id')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('i.environment_id', '=', environmentId)
    .where('c.test_clock_id', '=', testClockId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
