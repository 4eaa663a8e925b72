/**
 * The subscriber figures (decision 0101): kept beside the MRR movements by the job that
 * prices the terms log, compared by a rebuild, and read per period by
 * GET /api/v1/analytics/subscribers/.
 */
import type { SubscriberPeriod } from '@billow/contract';
import type { Executor, Tx } from '../../db/transaction.js';
import { localDate } from '../../lib/time-zone.js';
import { DIMENSIONS, type Owners } from './books.compute.js';
import type { DatePeriod } from './periods.compute.js';
import type { BookSegment, TermsLogRow } from './repo.js';
import * as repo from './repo/subscribers.js';
import { applyToSubscriberBooks, emptySubscriberBooks, type BookEvent, type SubscriberBooks } from './subscriber-books.compute.js';
import { allCurrencies, subscriberSeriesOf, type SubscriberEntry, type SubscriberFigures } from './subscribers.compute.js';

/** A log row's entry with the plan and the product it is priced from: what moves the three books. */
export type OwnedEntry = { entry: SubscriberEntry; owners: Owners };

/** A log row as the subscriber book reads it, with the MRR it was priced at. */
export function subscriberEntry(row: TermsLogRow, parts: bigint): SubscriberEntry {
  return {
    logId: Number(row.id),
    subscriptionId: row.subscription_id,
    previousSubscriptionId: row.previous_subscription_id,
    customerId: row.customer_id,
    currency: row.currency,
    at: row.at,
    active: parts > 0n,
    trialing: row.trialing,
    counts: row.counts,
    segment: '',
  };
}

/** The books of the subscriptions the entries touch (and those they follow), as the last run left them. */
async function booksOf(tx: Tx, environmentId: string, groups: readonly OwnedEntry[][]): Promise<SubscriberBooks> {
  const ids = new Set<string>();
  for (const { entry } of groups.flat()) {
    ids.add(entry.subscriptionId);
    if (entry.previousSubscriptionId) ids.add(entry.previousSubscriptionId);
  }
  const books = emptySubscriberBooks();
  for (const s of await repo.subscriptionStates(tx, environmentId, [...ids])) {
    books[s.dimension].subscriptions.set(s.subscription_id, { customerId: s.customer_id, currency: s.currency, active: s.active, trialing: s.trialing, segment: s.segment });
  }
  return books;
}

async function saveSubscribers(tx: Tx, environmentId: string, books: SubscriberBooks, events: readonly BookEvent[], timeZone: string): Promise<void> {
  const states = DIMENSIONS.flatMap((dimension) => [...books[dimension].subscriptions].map(([subscriptionId, s]) => ({ subscriptionId, dimension, ...s })));
  await repo.saveSubscriptionStates(tx, environmentId, states);
  await repo.insertSubscriptionEvents(
    tx,
    events.map((e) => ({
      environment_id: environmentId,
      dimension: e.dimension,
      segment: e.segment,
      subscription_id: e.subscriptionId,
      customer_id: e.customerId,
      currency: e.currency,
      at: e.at,
      day: localDate(e.at, timeZone),
      kind: e.kind,
      log_id: e.logId,
    })),
  );
}

/** Moves the kept subscriber figures of every book by the new log entries, a transaction's entries at a time. */
export async function keepSubscribers(tx: Tx, environmentId: string, groups: readonly OwnedEntry[][], timeZone: string): Promise<void> {
  const books = await booksOf(tx, environmentId, groups);
  const events = groups.flatMap((group) => applyToSubscriberBooks(books, group));
  await saveSubscribers(tx, environmentId, books, events, timeZone);
}

const inBook = (dimension: string, segment: string) => (dimension === 'all' ? '' : ` of ${dimension} ${segment}`);

export interface SubscriberRebuild {
  kept: number;
  rebuilt: number;
  differences: string[];
  /** Replaces the kept figures with the rebuild's. */
  apply(): Promise<void>;
}

/** The whole log's entries priced again from an empty book, compared with the kept events in order. */
export async function rebuildSubscribers(tx: Tx, environmentId: string, groups: readonly OwnedEntry[][], timeZone: string): Promise<SubscriberRebuild> {
  const books = emptySubscriberBooks();
  const rebuilt = groups.flatMap((group) => applyToSubscriberBooks(books, group));
  const kept = await repo.keptSubscriptionEvents(tx, environmentId);
  const differences: string[] = [];
  for (let i = 0; i < Math.max(kept.length, rebuilt.length); i++) {
    const k = kept[i];
    const r = rebuilt[i];
    const a = k ? `${k.kind} of ${k.subscription_id} in ${k.currency}${inBook(k.dimension, k.segment)} on ${k.day} (log ${k.log_id})` : 'nothing';
    const b = r ? `${r.kind} of ${r.subscriptionId} in ${r.currency}${inBook(r.dimension, r.segment)} on ${localDate(r.at, timeZone)} (log ${r.logId})` : 'nothing';
    if (a !== b) differences.push(`subscriber event ${i + 1}: kept ${a}, rebuilt ${b}`);
  }
  return {
    kept: kept.length,
    rebuilt: rebuilt.length,
    differences,
    apply: async () => {
      await repo.clearSubscribers(tx, environmentId);
      await saveSubscribers(tx, environmentId, books, rebuilt, timeZone);
    },
  };
}

/** Each period's figures of a book, per currency, from the kept events (periods sorted, none empty). */
export async function subscriberFigures(db: Executor, environmentId: string, book: BookSegment, periods: readonly DatePeriod[], currency: string | null): Promise<SubscriberFigures[]> {
  const [openings, days] = await Promise.all([
    repo.subscribersBefore(db, environmentId, book, periods[0]!.start),
    repo.subscriberDayCounts(db, environmentId, book, periods[0]!.start, periods[periods.length - 1]!.end, currency),
  ]);
  let next = 0;
  const totals = periods.map((period) => {
    const found = [];
    for (; next < days.length && days[next]!.day < period.end; next++) {
      const d = days[next]!;
      if (d.day >= period.start) found.push({ currency: d.currency, kind: d.kind, count: Number(d.count) });
    }
    return { label: period.label, totals: found };
  });
  const wanted = openings.filter((o) => !currency || o.currency === currency);
  return subscriberSeriesOf(wanted.map((o) => ({ currency: o.currency, active: Number(o.active), trials: Number(o.trials) })), totals);
}

function periodOnWire(f: SubscriberFigures, dates: DatePeriod): SubscriberPeriod {
  return {
    period: f.label,
    start: dates.start,
    end: dates.end,
    activeSubscriptionsStart: f.activeStart,
    activeSubscriptionsEnd: f.activeEnd,
    trialsStart: f.trialsStart,
    trialsEnd: f.trialsEnd,
    trialsStarted: f.trialsStarted,
    trialsEnded: f.trialsEnded,
    trialsConverted: f.trialsConverted,
    trialConversionRateBp: f.trialConversionRateBp,
  };
}

/** The figures as the API answers them: per currency, and every currency together. */
export function subscribersOnWire(periods: readonly DatePeriod[], figures: readonly SubscriberFigures[]) {
  const dates = new Map(periods.map((p) => [p.label, p]));
  const currencies = [...new Set(figures.map((f) => f.currency))].map((currency) => ({
    currency,
    periods: figures.filter((f) => f.currency === currency).map((f) => periodOnWire(f, dates.get(f.label)!)),
  }));
  const all = allCurrencies(periods.map((p) => p.label), figures).map((f) => periodOnWire(f, dates.get(f.label)!));
  return { currencies, allCurrencies: all };
}
