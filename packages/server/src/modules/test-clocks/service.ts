import type { TestClock, TestClockAdvance, TestClockCreate } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction } from '../../db/transaction.js';
import type { PageRequest } from '../../http/pagination.js';
import type { Clock } from '../../lib/clock.js';
import { randomBase62 } from '../../lib/crypto.js';
import { DAY_MS } from '../../lib/time.js';
import { enqueueJob } from '../jobs/service.js';
import { clockAt, type BillingEngine } from '../subscriptions/billing-engine.js';
import { earliestPendingExpiryOnClock, liveSubscriptionsOnClock, type SubscriptionRow } from '../subscriptions/queries.js';
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
/** A guard against a subscription that never stops falling due. */
const MAX_STEPS = 100_000;

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

  async create(scope: TestClockScope, input: TestClockCreate): Promise<TestClock> {
    this.sandboxOnly(scope);
    const frozen = input.frozenTime ? parseTime(input.frozenTime) : this.clock.now();
    const row = await repo.insertTestClock(this.db, {
      id: `tc_${randomBase62(24)}`,
      environment_id: scope.environmentId,
      name: input.name ?? null,
      frozen_time: frozen,
      target_time: frozen,
      status: 'ready',
      created_at: this.clock.now(),
    });
    return present({ ...row, customer_count: 0 });
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

  /** Moves the clock forward: answers at once (advancing); a job runs what falls due, in time order, then it is ready. */
  async advance(scope: TestClockScope, id: string, input: TestClockAdvance): Promise<TestClock> {
    this.sandboxOnly(scope);
    const target = parseTime(input.frozenTime);
    await inTransaction(this.db, async (tx) => {
      const clock = await repo.lockTestClock(tx, scope.environmentId, id);
      if (!clock) throw testClockNotFound(id);
      if (clock.status === 'advancing') throw testClockAdvancing(id);
      if (target.getTime() <= clock.frozen_time.getTime()) throw advanceNotForward(clock.frozen_time.toISOString());
      const limit = new Date(clock.frozen_time.getTime() + MAX_ADVANCE_MS);
      if (target.getTime() > limit.getTime()) throw advanceTooFar(limit.toISOString());
      await repo.updateTestClock(tx, id, { status: 'advancing', target_time: target, failure: null });
      await enqueueJob(tx, { name: ADVANCE_TEST_CLOCK_JOB, payload: { testClockId: id }, key: id });
    });
    return this.get(scope, id);
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

type DueOnClock =
  | { kind: 'billing'; at: Date; row: SubscriptionRow; due: NonNullable<Awaited<ReturnType<BillingEngine['nextItem']>>> }
  | { kind: 'expiry'; at: Date; environmentId: string; subscriptionId: string };

/** The earliest thing due on the clock's customers by `target`: an item of a subscription, or the expiry of a pending change. */
async function earliestDue(db: Db, engine: BillingEngine, testClockId: string, target: Date): Promise<DueOnClock | null> {
  let earliest: DueOnClock | null = null;
  for (const row of await liveSubscriptionsOnClock(db, testClockId)) {
    const due = await engine.nextItem(db, row, target);
    if (due && (!earliest || due.item.at < earliest.at)) earliest = { kind: 'billing', at: due.item.at, row, due };
  }
  const expiry = await earliestPendingExpiryOnClock(db, testClockId, target);
  if (expiry && (!earliest || expiry.pending_expires_at < earliest.at)) {
    earliest = { kind: 'expiry', at: expiry.pending_expires_at, environmentId: expiry.environment_id, subscriptionId: expiry.id };
  }
  return earliest;
}

async function runDue(engine: BillingEngine, next: DueOnClock, at: Date): Promise<void> {
  if (next.kind === 'expiry') {
    await engine.expirePending(next.environmentId, next.subscriptionId, at);
    return;
  }
  if (!(await engine.runItem(next.row, next.due, clockAt(at)))) {
    throw new Error(`subscription ${next.row.id} could not be billed at ${at.toISOString()} (another payment of the customer is under way)`);
  }
}

/**
 * The job of an advance: every item that falls due on the clock's customers runs
 * at its own time, earliest first, the clock standing at that time meanwhile; then
 * the clock stands at its target, ready. Run again after a crash, it goes on.
 */
export async function runTestClockAdvance(db: Db, engine: BillingEngine, testClockId: string): Promise<string | undefined> {
  const clock = await repo.findTestClockById(db, testClockId);
  if (!clock || clock.deleted_at || clock.status === 'ready') return undefined;
  let steps = 0;
  try {
    for (let next = await earliestDue(db, engine, testClockId, clock.target_time); next; next = await earliestDue(db, engine, testClockId, clock.target_time)) {
      if (++steps > MAX_STEPS) throw new Error(`more than ${MAX_STEPS} items fell due on test clock ${testClockId}`);
      // An item may be due before the clock's time (a payment retried at once): the clock never goes back.
      const at = new Date(Math.max(next.at.getTime(), clock.frozen_time.getTime()));
      if (at.getTime() > clock.frozen_time.getTime()) await repo.updateTestClock(db, testClockId, { frozen_time: at });
      clock.frozen_time = at;
      await runDue(engine, next, at);
    }
    await repo.updateTestClock(db, testClockId, { frozen_time: clock.target_time, status: 'ready', failure: null });
    await engine.clockMoved(testClockId);
  } catch (error) {
    await repo.updateTestClock(db, testClockId, { status: 'internal_failure', failure: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  return `advanced test clock ${testClockId} to ${clock.target_time.toISOString()} (${steps} items)`;
}
