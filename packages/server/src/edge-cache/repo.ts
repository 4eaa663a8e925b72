import { sql, type RawBuilder } from 'kysely';
import { PREPARED } from '../db/prepared.js';
import type { Executor } from '../db/transaction.js';

/** The channel every server process LISTENs on; change-feed.ts describes its payloads. */
export const ENTITLEMENTS_CHANNEL = 'billow_entitlements';

/**
 * The channel of changes to usage alone (reports, events, alerts sent), with the same
 * payloads: the entitlement cache follows both channels, where usage reports go
 * (`modules/usage/report-routes.ts`) only the first, which usage does not change.
 */
export const USAGE_CHANNEL = 'billow_usage';

/**
 * Announces that the entitlements of a customer (or with `*`, of every customer of the
 * environment) may have changed. Call it with the transaction that makes the change:
 * PostgreSQL delivers the notification when, and only if, that transaction commits, and
 * sends identical notifications of one transaction once.
 *
 * Other processes learn of the change within milliseconds; the process that made the
 * change must also drop its own entry after the commit (`EntitlementCache.invalidate*`),
 * because its next request may arrive before its own notification does.
 */
export async function notifyEntitlementsChanged(tx: Executor, environmentId: string, customerId: string): Promise<void> {
  await sql`${PREPARED} select ${entitlementsChangedNotice(environmentId, customerId)}`.execute(tx);
}

/** A value (sent as a parameter) or an SQL expression (a column of the statement) that reads as text. */
export type SqlText = string | RawBuilder<string>;

/**
 * The same announcement as an SQL expression, for a statement that makes the change
 * and announces it in one round trip (usage reports). It is sent if that statement's
 * transaction commits and evaluates the expression.
 */
export function entitlementsChangedNotice(environmentId: SqlText, customerId: SqlText): RawBuilder<unknown> {
  return sql`pg_notify(${ENTITLEMENTS_CHANNEL}, ${environmentId}::text || ':' || ${customerId}::text)`;
}

/** The announcement of a change to a customer's usage alone, on USAGE_CHANNEL. */
export function usageChangedNotice(environmentId: SqlText, customerId: SqlText): RawBuilder<unknown> {
  return sql`pg_notify(${USAGE_CHANNEL}, ${environmentId}::text || ':' || ${customerId}::text)`;
}

/** The same for many customers of one environment, in one statement (period resets, batch jobs). */
export async function notifyManyEntitlementsChanged(
  tx: Executor,
  environmentId: string,
  customerIds: readonly string[],
): Promise<void> {
  if (customerIds.length === 0) return;
  await sql`select pg_notify(${ENTITLEMENTS_CHANNEL}, ${`${environmentId}:`} || c)
    from unnest(${[...new Set(customerIds)]}::text[]) as c`.execute(tx);
}

/**
 * The same for customers known by their row ids (`customers.id`, as subscriptions hold
 * them), in one statement. Returns their customerIds, for the local invalidation after
 * the commit.
 */
export async function notifyEntitlementsChangedForCustomerRows(
  tx: Executor,
  environmentId: string,
  customerRowIds: readonly string[],
): Promise<string[]> {
  if (customerRowIds.length === 0) return [];
  const { rows } = await sql<{ customer_id: string }>`
    select c.customer_id, pg_notify(${ENTITLEMENTS_CHANNEL}, c.environment_id::text || ':' || c.customer_id)
      from customers c
     where c.environment_id = ${environmentId} and c.id = any(${[...new Set(customerRowIds)]}::uuid[])`.execute(tx);
  return rows.map((row) => row.customer_id);
}
