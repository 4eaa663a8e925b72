import TinyQueue from 'tinyqueue';
import type { Db } from '../db/connect.js';
import type { BillingEngine, NextItem } from './billing-engine.js';
import { subscriptionsOnClock, type SubscriptionRow } from '../modules/subscriptions/queries.js';
import type { ClockReminder, ClockReminders } from '../modules/test-clocks/reminder-port.js';

/**
 * What falls due on a clock's customer: an item of a subscription, the expiry of a change
 * waiting for its payment, or a timed reminder of a buyer email (decision 0071).
 */
export type DueOnClock =
  | { kind: 'billing'; at: Date; row: SubscriptionRow; due: NextItem }
  | { kind: 'expiry'; at: Date; row: SubscriptionRow }
  | { kind: 'reminder'; at: Date; row: SubscriptionRow; reminder: ClockReminder };

interface Entry {
  due: DueOnClock;
  /** Ties go to the entry made first (a billing item before an expiry). */
  order: number;
}

/** At the same instant, billing first: a reminder of a subscription that billing just ended is no longer due. */
const RANK = { billing: 0, expiry: 1, reminder: 2 } as const;

function earlier(a: Entry, b: Entry): number {
  return a.due.at.getTime() - b.due.at.getTime() || RANK[a.due.kind] - RANK[b.due.kind] || a.order - b.order;
}

/** A subscription's earliest: its billing item, its pending change's expiry, or its reminder. */
function dueOf(row: SubscriptionRow, next: NextItem | undefined, target: Date, reminder: ClockReminder | undefined): DueOnClock | null {
  const expires = row.status === 'incomplete' ? row.pending_expires_at : null;
  const candidates: DueOnClock[] = [];
  if (next) candidates.push({ kind: 'billing', at: next.item.at, row, due: next });
  else if (expires && expires.getTime() <= target.getTime()) candidates.push({ kind: 'expiry', at: expires, row });
  if (reminder) candidates.push({ kind: 'reminder', at: reminder.at, row, reminder });
  candidates.sort((a, b) => a.at.getTime() - b.at.getTime() || RANK[a.kind] - RANK[b.kind]);
  return candidates[0] ?? null;
}

/**
 * The earliest item due by the target of each subscription of a clock's customers, in a
 * priority queue: the clock's subscriptions are read once, and after an item runs only
 * its customer's (an item changes nothing of another customer), so an advance reads
 * each subscription a constant number of times rather than once an item.
 */
export class DueQueue {
  private heap = new TinyQueue<Entry>([], earlier);
  /** Each subscription's entry in the heap now; an entry replaced stays in the heap and is skipped. */
  private current = new Map<string, Entry>();
  /** The subscriptions held of each customer (customers.id). */
  private ofCustomer = new Map<string, string[]>();
  private made = 0;

  constructor(
    private readonly db: Db,
    private readonly engine: BillingEngine,
    private readonly testClockId: string,
    private readonly target: Date,
    private readonly reminders: ClockReminders | null = null,
  ) {}

  /** Reads the clock's subscriptions anew (`customerPk`: that customer's only); what was held of them is replaced. */
  async read(customerPk?: string): Promise<void> {
    const rows = await subscriptionsOnClock(this.db, this.testClockId, customerPk);
    if (customerPk === undefined) {
      this.heap = new TinyQueue<Entry>([], earlier);
      this.current.clear();
      this.ofCustomer.clear();
    } else {
      for (const id of this.ofCustomer.get(customerPk) ?? []) this.current.delete(id);
      this.ofCustomer.delete(customerPk);
    }
    const live = rows.filter((row) => row.status !== 'incomplete');
    const items = live.length > 0 ? await this.engine.nextItems(this.db, live, this.target) : new Map<string, NextItem>();
    const reminders = live.length > 0 && this.reminders ? await this.reminders.dueFor(live, this.target) : new Map<string, ClockReminder>();
    for (const row of rows) this.hold(row, dueOf(row, items.get(row.id), this.target, reminders.get(row.id)));
  }

  /** The earliest item held, taken out of the queue; null when none is. */
  take(): DueOnClock | null {
    for (let entry = this.heap.pop(); entry; entry = this.heap.pop()) {
      if (this.current.get(entry.due.row.id) !== entry) continue;
      this.current.delete(entry.due.row.id);
      return entry.due;
    }
    return null;
  }

  /** What is held as due for the subscription. */
  heldFor(subscriptionId: string): DueOnClock | undefined {
    return this.current.get(subscriptionId)?.due;
  }

  private hold(row: SubscriptionRow, due: DueOnClock | null): void {
    const ids = this.ofCustomer.get(row.customer_id) ?? [];
    ids.push(row.id);
    this.ofCustomer.set(row.customer_id, ids);
    if (!due) return;
    const entry = { due, order: this.made++ };
    this.current.set(row.id, entry);
    this.heap.push(entry);
  }
}
