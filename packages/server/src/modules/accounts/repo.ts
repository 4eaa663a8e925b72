import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { MemberRole } from '../../db/schema.js';
import type { EnvironmentKind } from '../../config.js';

/* Users */

export async function findUserByEmail(db: Executor, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUser(db: Executor, id: string, options: { forUpdate?: boolean } = {}) {
  const query = db.selectFrom('users').selectAll().where('id', '=', id);
  return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export type UserRow = NonNullable<Awaited<ReturnType<typeof findUser>>>;

export async function insertUser(db: Executor, user: { id: string; email: string; name: string; password_hash: string | null; created_at: Date }) {
  await db.insertInto('users').values({ ...user, modified_at: user.created_at }).execute();
}

export async function updateUser(
  db: Executor,
  id: string,
  changes: Partial<Pick<UserRow, 'name' | 'password_hash' | 'totp_secret' | 'totp_pending_secret' | 'totp_enabled' | 'failed_sign_ins' | 'locked_until' | 'language'>>,
  at: Date,
) {
  await db.updateTable('users').set({ ...changes, modified_at: at }).where('id', '=', id).execute();
}

/** Counts a failed sign-in; returns how many there now are in a row. */
export async function countFailedSignIn(db: Executor, id: string): Promise<number> {
  const row = await db
    .updateTable('users')
    .set({ failed_sign_ins: sql`failed_sign_ins + 1` })
    .where('id', '=', id)
    .returning('failed_sign_ins')
    .executeTakeFirstOrThrow();
  return row.failed_sign_ins;
}

/* Memberships */

export async function membershipsOfUser(db: Executor, userId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select(['m.organization_id', 'o.name as organization_name', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('o.name')
    .orderBy('m.organization_id')
    .execute();
}

export async function findMembership(db: Executor, organizationId: string, userId: string) {
  return db.selectFrom('memberships').selectAll().where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();
}

export async function insertMembership(db: Executor, row: { id: string; organization_id: string; user_id: string; role: MemberRole; created_at: Date }) {
  await db
    .insertInto('memberships')
    .values({ ...row, modified_at: row.created_at })
    .onConflict((c) => c.columns(['organization_id', 'user_id']).doNothing())
    .execute();
}

const memberColumns = ['m.id', 'm.user_id', 'u.email', 'u.name', 'm.role', 'm.created_at'] as const;

export async function membersOf(db: Executor, organizationId: string, page: { limit: number; offset: number }) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(memberColumns)
    .where('m.organization_id', '=', organizationId)
    .orderBy('m.created_at')
    .orderBy('m.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export type MemberRow = Awaited<ReturnType<typeof membersOf>>[number];

export async function countMembers(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('memberships').select((eb) => eb.fn.countAll<string>().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findMember(db: Executor, organizationId: string, membershipId: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(memberColumns)
    .where('m.organization_id', '=', organizationId)
    .where('m.id', '=', membershipId);
  return (options.forUpdate ? query.forUpdate('m') : query).executeTakeFirst();
}

/** Locks the organization's memberships, so that two changes at once cannot both remove the last owner. */
export async function lockOwners(db: Executor, organizationId: string): Promise<number> {
  const rows = await db.selectFrom('memberships').select('id').where('organization_id', '=', organizationId).where('role', '=', 'owner').forUpdate().execute();
  return rows.length;
}

export async function setRole(db: Executor, membershipId: string, role: MemberRole, at: Date) {
  await db.updateTable('memberships').set({ role, modified_at: at }).where('id', '=', membershipId).execute();
}

export async function deleteMembership(db: Executor, membershipId: string) {
  await db.deleteFrom('memberships').where('id', '=', membershipId).execute();
}

export async function organizationName(db: Executor, organizationId: string) {
  return (await db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirst())?.name;
}

/* Sessions */

export async function insertSession(
  db: Executor,
  row: { id: string; user_id: string; token_hash: string; created_at: Date; expires_at: Date; client_address: string; user_agent: string },
) {
  await db.insertInto('user_sessions').values({ ...row, last_seen_at: row.created_at }).execute();
}

/** The live session of this token, with its user; null when none (unknown, revoked, past its absolute or idle expiry). */
export async function liveSession(db: Executor, tokenHash: string, now: Date, idleSince: Date) {
  return db
    .selectFrom('user_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.user_id', 's.last_seen_at', 'u.email'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('s.last_seen_at', '>', idleSince)
    .executeTakeFirst();
}

/**
 * The session of this token as the credential of an organization's environment: its user,
 * the user's role there and the environment's id, in one read. Null when the session is not
 * live; `role` null when the user is not (or no longer) a member.
 */
export async function sessionCredential(
  db: Executor,
  params: { tokenHash: string; organizationId: string; environment: EnvironmentKind; now: Date; idleSince: Date },
) {
  return db
    .selectFrom('user_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('memberships as m', (join) => join.onRef('m.user_id', '=', 's.user_id').on('m.organization_id', '=', params.organizationId))
    .leftJoin('environments as e', (join) => join.onRef('e.organization_id', '=', 'm.organization_id').on('e.kind', '=', params.environment))
    .select(['s.id', 's.user_id', 's.last_seen_at', 'u.email', 'm.role', 'e.id as environment_id'])
    .where('s.token_hash', '=', params.tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', params.now)
    .where('s.last_seen_at', '>', params.idleSince)
    .executeTakeFirst();
}

export async function touchSession(db: Executor, id: string, at: Date) {
  await db.updateTable('user_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function revokeSession(db: Executor, userId: string, sessionId: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('user_sessions')
    .set({ revoked_at: at })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function revokeSessionByHash(db: Executor, tokenHash: string, at: Date) {
  await db.updateTable('user_sessions').set({ revoked_at: at }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).execute();
}

/** Ends every session of the user but `keep` (a password change keeps the session that made it). */
export async function revokeSessionsOfUser(db: Executor, userId: string, at: Date, keep: string | null = null) {
  let query = db.updateTable('user_sessions').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keep) query = query.where('id', '!=', keep);
  await query.execute();
}

export async function liveSessionsOfUser(db: Executor, userId: string, now: Date, idleSince: Date) {
  return db
    .selectFrom('user_sessions')
    .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'client_address', 'user_agent'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', idleSince)
    .orderBy('created_at', 'desc')
    .limit(100)
    .execute();
}

/* One-time tokens */

export async function insertToken(db: Executor, row: { token_hash: string; kind: 'sign_in' | 'password_reset'; user_id: string; created_at: Date; expires_at: Date }) {
  await db.insertInto('account_tokens').values(row).execute();
}

/** Uses the token: its user's id once, null when unknown, used or expired. */
export async function consumeToken(db: Executor, tokenHash: string, kind: 'sign_in' | 'password_reset', now: Date): Promise<string | null> {
  const row = await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/* Invitations */

export async function insertInvitation(
  db: Executor,
  row: { id: string; organization_id: string; email: string; role: MemberRole; token_hash: string; invited_by: string | null; created_at: Date; expires_at: Date },
) {
  await db.insertInto('invitations').values(row).execute();
}

const openInvitations = (db: Executor, now: Date) =>
  db.selectFrom('invitations').where('accepted_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', now);

export async function invitationsOf(db: Executor, organizationId: string, now: Date, page: { limit: number; offset: number }) {
  return openInvitations(db, now)
    .select(['id', 'email', 'role', 'invited_by', 'created_at', 'expires_at'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export type InvitationRow = Awaited<ReturnType<typeof invitationsOf>>[number];

export async function countInvitations(db: Executor, organizationId: string, now: Date): Promise<number> {
  const row = await openInvitations(db, now)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Accepts the open invitation of this token, once: its organization, email and role. */
export async function acceptInvitation(db: Executor, tokenHash: string, now: Date) {
  return db
    .updateTable('invitations')
    .set({ accepted_at: now })
    .where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['id', 'organization_id', 'email', 'role'])
    .executeTakeFirst();
}

export async function revokeInvitation(db: Executor, organizationId: string, id: string, now: Date) {
  return db
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning(['id', 'email', 'role'])
    .executeTakeFirst();
}

/** Ends the open invitations of this email to the organization (a newer one replaces them). */
export async function revokeInvitationsOfEmail(db: Executor, organizationId: string, email: string, now: Date) {
  await db
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('organization_id', '=', organizationId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function environmentsOfOrganization(db: Executor, organizationId: string) {
  return db.selectFrom('environments').select(['id', 'kind']).where('organization_id', '=', organizationId).execute();
}
