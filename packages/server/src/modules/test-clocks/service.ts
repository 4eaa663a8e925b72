import type { TestClock, TestClockAdvance, TestClockCreate, TestClockInvoice } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction } from '../../db/transaction.js';
import type { PageRequest } from '../../lib/pagination.js';
import { keptAnswer, writeKeeping, type AnswerKeeper } from '../../db/answer-keeper.js';
import type { Clock } from '../../lib/clock.js';
import { randomBase62 } from '../../lib/crypto.js';
import { DAY_MS } from '../../lib/time.js';
import { enqueueJob } from '../jobs/service.js';
import {
  advanceNotForward,
  advanceTooFar,
  invalidFrozenTime,
  testClockAdvancing,
  testClockNotFound,
  testClocksSandboxOnly,
} from './errors.js';
import * as repo from './repo.js';

export const ADVANCE_TEST_CLOCK_JOB = 'advance-test-clock';
/** How far one advance may go: two years of daily renewals is the most one advance runs. */
const MAX_ADVANCE_MS = 2 * 366 * DAY_MS;

export interface TestClockScope {
  environmentId: string;
  environment: 'sandbox' | 'production';
}

function present(row: repo.TestClockView): TestClock {
  return {
    id: row.id,
    object: 'test_clock',
    name: row.name,
    frozenTime: row.frozen_time.toISOString(),
    status: row.status,
    advancingTo: row.status === 'ready' ? null : row.target_time.toISOString(),
    failure: row.failure,
    customerCount: row.customer_count,
    createdOn: row.created_at.toISOString(),
  };
}

function presentInvoice(row: Awaited<ReturnType<typeof repo.clockInvoices>>[number]): TestClockInvoice {
  return {
    id: row.id,
    customerId: row.customer_id,
    subscriptionId: row.subscription_id,
    status: row.status,
    currency: row.currency,
    totalUnits: Number(row.total_minor),
    attemptCount: row.attempt_count,
    periodStart: row.period_start?.toISOString() ?? null,
    periodEnd: row.period_end?.toISOString() ?? null,
    issuedOn: row.issued_at.toISOString(),
    paidOn: row.paid_at?.toISOString() ?? null,
  };
}

/** Test clocks live between these years: far enough for any test, and always a valid timestamp for the database. */
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2999, 11, 31);

function parseTime(text: string): Date {
  const at = new Date(text);
  if (Number.isNaN(at.getTime()) || at.getTime() < EARLIEST || at.getTime() > LATEST) throw invalidFrozenTime();
  return at;
}

export class TestClockService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private sandboxOnly(scope: TestClockScope): void {
    if (scope.environment !== 'sandbox') throw testClocksSandboxOnly();
  }

  async create(scope: TestClockScope, input: TestClockCreate, keep?: AnswerKeeper): Promise<TestClock> {
    this.sandboxOnly(scope);
    const frozen = input.frozenTime ? parseTime(input.frozenTime) : this.clock.now();
    const row = {
      id: `tc_${randomBase62(24)}`,
      environment_id: scope.environmentId,
      name: input.name ?? null,
      frozen_time: frozen,
      target_time: frozen,
      status: 'ready' as const,
      created_at: this.clock.now(),
    };
    return writeKeeping(this.db, keep, async (db) => present({ ...(await repo.insertTestClock(db, row)), customer_count: 0 }));
  }

  async get(scope: TestClockScope, id: string): Promise<TestClock> {
    this.sandboxOnly(scope);
    const row = await repo.findTestClock(this.db, scope.environmentId, id);
    if (!row) throw testClockNotFound(id);
    return present(row);
  }

  async list(scope: TestClockScope, page: PageRequest): Promise<{ count: number; results: TestClock[] }> {
    this.sandboxOnly(scope);
    const count = await repo.countTestClocks(this.db, scope.environmentId);
    const rows = page.offset >= count ? [] : await repo.listTestClocks(this.db, scope.environmentId, page.pageSize, page.offset);
    return { count, results: rows.map(present) };
  }

  /** What the clock's advances billed: the invoices of its customers, newest first (decision 0087). */
  async invoices(scope: TestClockScope, id: string, page: PageRequest): Promise<{ count: number; results: TestClockInvoice[] }> {
    this.sandboxOnly(scope);
    if (!(await repo.findTestClock(this.db, scope.environmentId, id))) throw testClockNotFound(id);
    const count = await repo.countClockInvoices(this.db, scope.environmentId, id);
    const rows = page.offset >= count ? [] : await repo.clockInvoices(this.db, scope.environmentId, id, page.pageSize, page.offset);
    return { count, results: rows.map(presentInvoice) };
  }

  /** Moves the clock forward: answers at once (advancing); a job runs what falls due, in time order, then it is ready. */
  async advance(scope: TestClockScope, id: string, input: TestClockAdvance, keep?: AnswerKeeper): Promise<TestClock> {
    this.sandboxOnly(scope);
    const target = parseTime(input.frozenTime);
    return inTransaction(this.db, async (tx) => {
      const clock = await repo.lockTestClock(tx, scope.environmentId, id);
      if (!clock) throw testClockNotFound(id);
      if (clock.status === 'advancing') throw testClockAdvancing(id);
      if (target.getTime() <= clock.frozen_time.getTime()) throw advanceNotForward(clock.frozen_time.toISOString());
      const limit = new Date(clock.frozen_time.getTime() + MAX_ADVANCE_MS);
      if (target.getTime() > limit.getTime()) throw advanceTooFar(limit.toISOString());
      await repo.updateTestClock(tx, id, { status: 'advancing', target_time: target, failure: null });
      await enqueueJob(tx, { name: ADVANCE_TEST_CLOCK_JOB, payload: { testClockId: id }, key: id });
      return keptAnswer(keep, tx, present((await repo.findTestClock(tx, scope.environmentId, id))!));
    });
  }

  /** The clock is gone; its customers stay where it stopped, and nothing more happens to them. */
  async delete(scope: TestClockScope, id: string): Promise<void> {
    this.sandboxOnly(scope);
    await inTransaction(this.db, async (tx) => {
      const clock = await repo.lockTestClock(tx, scope.environmentId, id);
      if (!clock) throw testClockNotFound(id);
      if (clock.status === 'advancing') throw testClockAdvancing(id);
      await repo.updateTestClock(tx, id, { deleted_at: this.clock.now() });
    });
  }
}
