/** What the pages of due payments read (decision 0035): an invoice by its payment link, and what a session pays. */
import type { Executor } from '../../../db/transaction.js';
import type { SessionRow } from '../repo.js';

/** The invoice of a payment link, with what its page shows and its session needs. */
export async function invoiceOfPayToken(db: Executor, token: string) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .innerJoin('customers as c', 'c.id', 'i.customer_id')
    .innerJoin('environments as e', 'e.id', 'i.environment_id')
    .innerJoin('plans as p', 'p.id', 'o.plan_id')
    .leftJoin('subscriptions as s', 's.id', 'o.subscription_id')
    .leftJoin('test_clocks as t', 't.id', 'c.test_clock_id')
    .select([
      'i.id',
      'i.pay_token_expires_at',
      // The customer's time, when a test clock keeps it: the link expires by that clock (decision 0070).
      't.frozen_time as clock_time',
      'i.environment_id',
      'i.status',
      'i.total_minor',
      'i.currency',
      'o.product_id',
      'o.subscription_id',
      'p.identifier as plan_identifier',
      's.charge_period',
      'c.id as customer_uuid',
      'c.customer_id as customer_ref',
      'c.email',
      'c.name',
      'c.locale',
      'e.kind as environment',
      'e.organization_id',
    ])
    .where('i.pay_token', '=', token)
    .executeTakeFirst();
}

export type PayLinkInvoice = NonNullable<Awaited<ReturnType<typeof invoiceOfPayToken>>>;

/** The session a payment link opened for its invoice that is still usable (open or paying, not past its time). */
export async function liveSessionFor(db: Executor, targetId: string, now: Date): Promise<SessionRow | undefined> {
  return db
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('target_id', '=', targetId)
    .where('status', 'in', ['open', 'processing'])
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** What a due session pays, as it stands: the pending subscription's or the invoice's status. */
export async function targetState(
  db: Executor,
  session: SessionRow,
): Promise<{ status: string; pendingUntil: Date | null; number: string | null } | undefined> {
  if (session.purpose === 'invoice') {
    return db
      .selectFrom('invoices')
      .select(['status', 'number', (eb) => eb.val<Date | null>(null).as('pendingUntil')])
      .where('id', '=', session.target_id!)
      .where('environment_id', '=', session.environment_id)
      .executeTakeFirst();
  }
  const subscription = await db
    .selectFrom('subscriptions')
    .select(['status', 'pending_expires_at as pendingUntil'])
    .where('id', '=', session.target_id!)
    .where('environment_id', '=', session.environment_id)
    .executeTakeFirst();
  return subscription && { ...subscription, number: null };
}

/** A plan's published name, for the page of a change. */
export async function planName(db: Executor, environmentId: string, identifier: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('plans as p')
    .innerJoin('plan_versions as v', (join) => join.onRef('v.plan_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .select('v.name')
    .where('p.environment_id', '=', environmentId)
    .where('p.identifier', '=', identifier)
    .executeTakeFirst();
  return row?.name;
}

/** The lawful number of an invoice of this environment (null before numbering, or when there is none). */
export async function invoiceNumber(db: Executor, environmentId: string, id: string): Promise<string | null> {
  const row = await db.selectFrom('invoices').select('number').where('id', '=', id).where('environment_id', '=', environmentId).executeTakeFirst();
  return row?.number ?? null;
}
