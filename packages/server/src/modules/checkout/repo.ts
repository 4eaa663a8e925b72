import type { Insertable, Selectable, Updateable } from 'kysely';
import type { CheckoutSessionEventsTable, CheckoutSessionsTable, CheckoutStatus } from '../../db/schema.js';
import { containsPattern } from '../../db/search.js';
import type { Executor } from '../../db/transaction.js';
import type { DateRange } from '../ledger/format.js';

export type SessionRow = Selectable<CheckoutSessionsTable>;
export type SessionEventRow = Selectable<CheckoutSessionEventsTable>;

/** A session with the names a list shows: its product's, and its customer's once known. */
export type SessionListRow = SessionRow & {
  product_name: string;
  product_identifier: string;
  customer_name: string | null;
  customer_email: string | null;
  customer_merchant_id: string | null;
};

export async function insertSession(db: Executor, row: Insertable<CheckoutSessionsTable>): Promise<SessionRow> {
  return db.insertInto('checkout_sessions').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A session by its id alone: the hosted page knows nothing else (the id is its credential). */
export async function findSession(db: Executor, id: string, options: { forUpdate?: boolean } = {}): Promise<SessionRow | undefined> {
  let query = db.selectFrom('checkout_sessions').selectAll().where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function updateSession(db: Executor, id: string, values: Updateable<CheckoutSessionsTable>): Promise<SessionRow> {
  return db.updateTable('checkout_sessions').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Ends an open session whose time is up; undefined when it is no longer open. */
export async function expireSession(db: Executor, id: string, at: Date): Promise<SessionRow | undefined> {
  return db
    .updateTable('checkout_sessions')
    .set({ status: 'expired', modified_at: at })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .where('expires_at', '<=', at)
    .returningAll()
    .executeTakeFirst();
}

export interface SessionFilter {
  environmentId: string;
  search?: string;
  status?: CheckoutStatus;
  created: DateRange;
}

function listed(db: Executor, filter: SessionFilter) {
  let query = db
    .selectFrom('checkout_sessions as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .leftJoin('customers as c', 'c.id', 's.customer_id')
    .where('s.environment_id', '=', filter.environmentId);
  if (filter.status) query = query.where('s.status', '=', filter.status);
  if (filter.created.from) query = query.where('s.created_at', '>=', filter.created.from);
  if (filter.created.before) query = query.where('s.created_at', '<', filter.created.before);
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    query = query.where((eb) =>
      eb.or([
        eb('s.id', '=', filter.search!),
        eb('s.customer_ref', 'ilike', pattern),
        eb('s.email', 'ilike', pattern),
        eb('c.name', 'ilike', pattern),
        eb('c.email', 'ilike', pattern),
        eb('p.name', 'ilike', pattern),
      ]),
    );
  }
  return query;
}

export async function countSessions(db: Executor, filter: SessionFilter): Promise<number> {
  const row = await listed(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A session with the names a list shows: its product's and its customer's. */
function withNames(db: Executor, filter: SessionFilter) {
  return listed(db, filter)
    .selectAll('s')
    .select([
      'p.name as product_name',
      'p.identifier as product_identifier',
      'c.name as customer_name',
      'c.email as customer_email',
      'c.customer_id as customer_merchant_id',
    ]);
}

export async function listSessions(db: Executor, filter: SessionFilter, limit: number, offset: number): Promise<SessionListRow[]> {
  return withNames(db, filter)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.seq', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** One session of the environment with the names a list shows. */
export async function findListedSession(db: Executor, environmentId: string, id: string): Promise<SessionListRow | undefined> {
  return withNames(db, { environmentId, created: {} })
    .where('s.id', '=', id)
    .executeTakeFirst();
}

export async function insertSessionEvent(db: Executor, row: Insertable<CheckoutSessionEventsTable>): Promise<void> {
  await db.insertInto('checkout_session_events').values(row).execute();
}

export async function countSessionEvents(db: Executor, sessionId: string): Promise<number> {
  const row = await db
    .selectFrom('checkout_session_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listSessionEvents(db: Executor, sessionId: string, limit: number, offset: number): Promise<SessionEventRow[]> {
  return db
    .selectFrom('checkout_session_events')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The order a session completed, for its detail. */
export async function findOrderSummary(db: Executor, orderId: string) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .executeTakeFirst();
}

/** Products with their environment's kind, organization and site: what a buy link needs. */
function buyableProducts(db: Executor) {
  return db
    .selectFrom('products as p')
    .innerJoin('environments as e', 'e.id', 'p.environment_id')
    .leftJoin('product_settings as ps', 'ps.product_id', 'p.id')
    .select(['p.id', 'p.environment_id', 'p.archived_at', 'e.kind as environment', 'e.organization_id', 'ps.product_url']);
}

/** A product by id in any environment: a buy link by product id names nothing else. */
export async function findProductWithEnvironment(db: Executor, productId: string) {
  return buyableProducts(db).where('p.id', '=', productId).executeTakeFirst();
}

/** A product by its identifier in an organization (by slug) and environment (decision 0059). */
export async function findProductByIdentifier(db: Executor, slug: string, environment: 'sandbox' | 'production', identifier: string) {
  return buyableProducts(db)
    .innerJoin('organizations as o', 'o.id', 'e.organization_id')
    .where('o.slug', '=', slug)
    .where('e.kind', '=', environment)
    .where('p.identifier', '=', identifier)
    .executeTakeFirst();
}

/** The subscription a session started, as its detail shows it. */
export async function findSubscriptionSummary(db: Executor, id: string) {
  return db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The card a session was paid with. */
export async function findMethodSummary(db: Executor, id: number) {
  return db.selectFrom('payment_methods').select(['method_type', 'brand', 'last4']).where('id', '=', id).executeTakeFirst();
}
