import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/connect.js';
import { clockAt, type BillingEngine } from './billing-engine.js';
import { DueQueue, type DueOnClock } from './test-clock-due-queue.js';
import type { ClockReminders } from '../modules/test-clocks/reminder-port.js';
import * as repo from '../modules/test-clocks/queries.js';

/** A guard against a subscription that never stops falling due. */
const MAX_STEPS = 100_000;
/**
 * How long an item is tried again while another payment of its customer is under way
 * (another worker paying it, or a request paying the customer): such a payment settles
 * within a provider call; one still under way after this is left to the job's next attempt.
 */
const BUSY_WAITS_MS = [5, 10, 25, 50, 100, 200, 400, 800, 1_600, 3_200, 6_400];

/** What runs the items of an advance. */
interface Runners {
  engine: BillingEngine;
  reminders: ClockReminders | null;
}

/** Runs the item; false when it was not for now (done meanwhile, or another payment of the customer under way). */
async function runDue(run: Runners, next: DueOnClock, at: Date): Promise<boolean> {
  if (next.kind === 'expiry') return run.engine.expirePending(next.row.environment_id, next.row.id, at);
  if (next.kind === 'reminder') {
    await run.reminders?.record(next.row, next.reminder, at);
    return true;
  }
  return run.engine.runItem(next.row, next.due, clockAt(at));
}

function sameItem(a: DueOnClock | undefined, b: DueOnClock): boolean {
  return a?.kind === 'billing' && b.kind === 'billing' && a.due.item.kind === b.due.item.kind && a.at.getTime() === b.at.getTime();
}

/**
 * Runs the item, then reads its customer's subscriptions anew. An item that was not for now
 * is still held when another payment of the customer is under way: it is tried again a few
 * times, a little later each time; the advance stops there when that payment does not settle.
 */
async function step(run: Runners, queue: DueQueue, next: DueOnClock, at: Date): Promise<void> {
  for (const wait of [...BUSY_WAITS_MS, null]) {
    const ran = await runDue(run, next, at);
    await queue.read(next.row.customer_id);
    if (ran || !sameItem(queue.heldFor(next.row.id), next)) return;
    if (wait === null) break;
    await sleep(wait);
  }
  throw new Error(`subscription ${next.row.id} could not be billed at ${at.toISOString()} (another payment of the customer is under way)`);
}

/** The earliest item held; when none is, the clock's subscriptions are read again (a request may have changed them meanwhile). */
async function nextDue(queue: DueQueue): Promise<DueOnClock | null> {
  const held = queue.take();
  if (held) return held;
  await queue.read();
  return queue.take();
}

/**
 * The job of an advance: every item that falls due on the clock's customers runs
 * at its own time, earliest first, the clock standing at that time meanwhile; then
 * the clock stands at its target, ready. Run again after a crash, it goes on.
 * The timed reminders of buyer emails (`reminders`, decision 0071) are items too,
 * recorded at their own time. Each item runs in its own short transactions, and the event loop gets a turn
 * between items: on the embedded database, which runs one statement at a time,
 * requests and webhook deliveries go on during a long advance.
 */
export async function runTestClockAdvance(
  db: Db,
  engine: BillingEngine,
  testClockId: string,
  reminders: ClockReminders | null = null,
): Promise<string | undefined> {
  const clock = await repo.findTestClockById(db, testClockId);
  if (!clock || clock.deleted_at || clock.status === 'ready') return undefined;
  // The job's next attempt after a failed one goes on from where that one stopped.
  if (clock.status === 'internal_failure') {
    await repo.updateAdvancingClock(db, testClockId, clock.target_time, { status: 'advancing', failure: null }, ['internal_failure']);
  }
  const queue = new DueQueue(db, engine, testClockId, clock.target_time, reminders);
  let steps = 0;
  try {
    await queue.read();
    for (let next = await nextDue(queue); next; next = await nextDue(queue)) {
      if (++steps > MAX_STEPS) throw new Error(`more than ${MAX_STEPS} items fell due on test clock ${testClockId}`);
      // An item may be due before the clock's time (a payment retried at once): the clock never goes back.
      const at = new Date(Math.max(next.at.getTime(), clock.frozen_time.getTime()));
      if (at.getTime() > clock.frozen_time.getTime()) await repo.updateAdvancingClock(db, testClockId, clock.target_time, { frozen_time: at });
      clock.frozen_time = at;
      await step({ engine, reminders }, queue, next, at);
      await nextTurn();
    }
    const ready = { frozen_time: clock.target_time, status: 'ready', failure: null } as const;
    // Every item ran: the clock is ready even if a run beside this one gave up meanwhile.
    const finished = await repo.updateAdvancingClock(db, testClockId, clock.target_time, ready, ['advancing', 'internal_failure']);
    if (finished) await engine.clockMoved(testClockId);
  } catch (error) {
    const failure = error instanceof Error ? error.message : String(error);
    await repo.updateAdvancingClock(db, testClockId, clock.target_time, { status: 'internal_failure', failure });
    throw error;
  }
  return `advanced test clock ${testClockId} to ${clock.target_time.toISOString()} (${steps} items)`;
}
