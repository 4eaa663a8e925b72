import type { Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { PortalSessionsTable } from '../../db/schema.js';

export type PortalSessionRow = Selectable<PortalSessionsTable>;

export async function insertSession(db: Executor, row: PortalSessionRow): Promise<void> {
  await db.insertInto('portal_sessions').values(row).execute();
}

export function findSession(db: Executor, id: string): Promise<PortalSessionRow | undefined> {
  return db.selectFrom('portal_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function organizationSlug(db: Executor, organizationId: string): Promise<string | undefined> {
  const row = await db.selectFrom('organizations').select('slug').where('id', '=', organizationId).executeTakeFirst();
  return row?.slug;
}

/** The organization and environment a portal URL names, e.g. /sandbox/portal/acme/. */
export function environmentOfSlug(db: Executor, slug: string, kind: 'sandbox' | 'production') {
  return db
    .selectFrom('organizations as o')
    .innerJoin('environments as e', 'e.organization_id', 'o.id')
    .select(['o.id as organizationId', 'o.name as organizationName', 'e.id as environmentId'])
    .where('o.slug', '=', slug)
    .where('e.kind', '=', kind)
    .executeTakeFirst();
}

/** Claims one form submission; false when it was claimed before (a double submit). */
export async function claimSubmission(db: Executor, sessionId: string, nonce: string, at: Date): Promise<boolean> {
  const inserted = await db
    .insertInto('portal_submissions')
    .values({ session_id: sessionId, nonce, created_at: at })
    .onConflict((oc) => oc.doNothing())
    .returning('nonce')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** A submission whose action was refused may be sent again. */
export async function releaseSubmission(db: Executor, sessionId: string, nonce: string): Promise<void> {
  await db.deleteFrom('portal_submissions').where('session_id', '=', sessionId).where('nonce', '=', nonce).execute();
}
