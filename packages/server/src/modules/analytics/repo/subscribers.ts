/** The kept subscriber figures (decision 0101): each subscription's standing and the events that change the counts. */
import { sql, type Insertable } from 'kysely';
import type { AnalyticsSubscriptionEventsTable } from '../../../db/schema.js';
import type { Executor, Tx } from '../../../db/transaction.js';
import { chunks } from '../../../lib/chunks.js';
import type { Dimension } from '../books.compute.js';
import type { BookSegment } from '../repo.js';

const IDS_A_STATEMENT = 10_000;
const ROWS_A_STATEMENT = 2_000;

export async function subscriptionStates(tx: Tx, environmentId: string, subscriptionIds: readonly string[]) {
  const found = [];
  for (const slice of chunks(subscriptionIds, IDS_A_STATEMENT)) {
    found.push(
      ...(await tx
        .selectFrom('analytics_subscription_states')
        .select(['subscription_id', 'dimension', 'segment', 'customer_id', 'currency', 'active', 'trialing'])
        .where('environment_id', '=', environmentId)
        .where('subscription_id', 'in', slice)
        .execute()),
    );
  }
  return found;
}

export async function saveSubscriptionStates(
  tx: Tx,
  environmentId: string,
  rows: readonly { subscriptionId: string; dimension: Dimension; segment: string; customerId: string; currency: string; active: boolean; trialing: boolean }[],
): Promise<void> {
  for (const slice of chunks(rows, ROWS_A_STATEMENT)) {
    await tx
      .insertInto('analytics_subscription_states')
      .values(
        slice.map((r) => ({
          subscription_id: r.subscriptionId,
          dimension: r.dimension,
          segment: r.segment,
          environment_id: environmentId,
          customer_id: r.customerId,
          currency: r.currency,
          active: r.active,
          trialing: r.trialing,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['subscription_id', 'dimension']).doUpdateSet((eb) => ({
          segment: eb.ref('excluded.segment'),
          customer_id: eb.ref('excluded.customer_id'),
          currency: eb.ref('excluded.currency'),
          active: eb.ref('excluded.active'),
          trialing: eb.ref('excluded.trialing'),
        })),
      )
      .execute();
  }
}

export async function insertSubscriptionEvents(tx: Tx, rows: readonly Insertable<AnalyticsSubscriptionEventsTable>[]): Promise<void> {
  for (const slice of chunks(rows, ROWS_A_STATEMENT)) await tx.insertInto('analytics_subscription_events').values(slice).execute();
}

/** The kept events of an environment in the order they were made: what a rebuild compares with. */
export function keptSubscriptionEvents(db: Executor, environmentId: string) {
  return db
    .selectFrom('analytics_subscription_events')
    .select(['log_id', 'dimension', 'segment', 'subscription_id', 'customer_id', 'currency', 'kind', sql<string>`day::text`.as('day')])
    .where('environment_id', '=', environmentId)
    .orderBy('id')
    .execute();
}

/** Per currency, the active subscriptions and the trials the events of a book before `day` leave. */
export function subscribersBefore(db: Executor, environmentId: string, book: BookSegment, day: string) {
  return db
    .selectFrom('analytics_subscription_events')
    .select('currency')
    .select(sql<string>`(count(*) filter (where kind = 'activated') - count(*) filter (where kind = 'deactivated'))::text`.as('active'))
    .select(sql<string>`(count(*) filter (where kind = 'trial_started') - count(*) filter (where kind in ('trial_converted', 'trial_lapsed')))::text`.as('trials'))
    .where('environment_id', '=', environmentId)
    .where('dimension', '=', book.dimension)
    .where('segment', '=', book.segment)
    .where('day', '<', sql<Date>`${day}::date`)
    .groupBy('currency')
    .execute();
}

export type SubscriberDayCount = Awaited<ReturnType<typeof subscriberDayCounts>>[number];

/** The events of a book on each day in [from, to), counted per currency and kind, by day. */
export function subscriberDayCounts(db: Executor, environmentId: string, book: BookSegment, from: string, to: string, currency: string | null) {
  let query = db
    .selectFrom('analytics_subscription_events')
    .select(['currency', 'kind', sql<string>`day::text`.as('day')])
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('environment_id', '=', environmentId)
    .where('dimension', '=', book.dimension)
    .where('segment', '=', book.segment)
    .where('day', '>=', sql<Date>`${from}::date`)
    .where('day', '<', sql<Date>`${to}::date`);
  if (currency) query = query.where('currency', '=', currency);
  return query.groupBy(['currency', 'kind', 'day']).orderBy('day').execute();
}

/** Forgets the environment's kept subscriber figures: a rebuild writes them again. */
export async function clearSubscribers(tx: Tx, environmentId: string): Promise<void> {
  await tx.deleteFrom('analytics_subscription_events').where('environment_id', '=', environmentId).execute();
  await tx.deleteFrom('analytics_subscription_states').where('environment_id', '=', environmentId).execute();
}
