import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { EnvironmentKind } from '../../config.js';

/** Running servers LISTEN here and drop a revoked key from their caches at once. */
export const KEY_REVOKED_CHANNEL = 'billow_key_revoked';

/** Advisory lock key under which organizations are created one at a time (their slugs, the first organization). */
const ORGANIZATION_CREATION_LOCK = 7_100_222;

export interface KeyRecord {
  id: string;
  kind: 'server' | 'client' | 'partner';
  organizationId: string | null;
  environmentId: string | null;
  environmentKind: EnvironmentKind | null;
  partnerId: string | null;
  revoked: boolean;
}

/** The hashes of the keys (not revoked) that have these public prefixes: the failure limit's check (decision 0055). */
export async function keysOfPrefixes(db: Executor, prefixes: string[]): Promise<{ prefix: string; keyHash: string }[]> {
  if (prefixes.length === 0) return [];
  const rows = await db.selectFrom('api_keys').select(['prefix', 'key_hash']).where('prefix', 'in', prefixes).where('revoked_at', 'is', null).execute();
  return rows.map((row) => ({ prefix: row.prefix, keyHash: row.key_hash }));
}

export async function findKeyByHash(db: Executor, hash: string): Promise<KeyRecord | null> {
  const row = await db
    .selectFrom('api_keys as k')
    .leftJoin('environments as e', 'e.id', 'k.environment_id')
    .select([
      'k.id',
      'k.kind',
      'k.organization_id',
      'k.environment_id',
      'k.partner_id',
      'k.revoked_at',
      'e.kind as environment_kind',
    ])
    .where('k.key_hash', '=', hash)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    kind: row.kind,
    organizationId: row.organization_id,
    environmentId: row.environment_id,
    environmentKind: row.environment_kind,
    partnerId: row.partner_id,
    revoked: row.revoked_at !== null,
  };
}

export async function insertOrganization(
  db: Executor,
  org: {
    id: string;
    name: string;
    slug: string;
    ownerEmail: string | null;
    partnerId: string | null;
    partnerExternalId: string | null;
    createdAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('organizations')
    .values({
      id: org.id,
      name: org.name,
      slug: org.slug,
      owner_email: org.ownerEmail,
      partner_id: org.partnerId,
      partner_external_id: org.partnerExternalId,
      created_at: org.createdAt,
    })
    .execute();
}

/** Held until the transaction ends; taking it again in the same transaction does not wait. */
export async function lockOrganizationCreation(tx: Executor): Promise<void> {
  await sql`select pg_advisory_xact_lock(${ORGANIZATION_CREATION_LOCK})`.execute(tx);
}

export async function slugsLike(db: Executor, base: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('organizations')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  return new Set(rows.map((r) => r.slug));
}

export async function insertEnvironment(
  db: Executor,
  env: { id: string; organizationId: string; kind: EnvironmentKind; createdAt: Date },
): Promise<void> {
  await db
    .insertInto('environments')
    .values({ id: env.id, organization_id: env.organizationId, kind: env.kind, created_at: env.createdAt })
    .execute();
}

export async function findEnvironment(db: Executor, organizationId: string, kind: EnvironmentKind) {
  return db
    .selectFrom('environments')
    .select(['id', 'organization_id', 'kind'])
    .where('organization_id', '=', organizationId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

export async function insertKey(
  db: Executor,
  key: {
    id: string;
    kind: 'server' | 'client' | 'partner';
    organizationId: string | null;
    environmentId: string | null;
    partnerId: string | null;
    prefix: string;
    hash: string;
    name?: string | null;
    createdAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({
      id: key.id,
      kind: key.kind,
      organization_id: key.organizationId,
      environment_id: key.environmentId,
      partner_id: key.partnerId,
      prefix: key.prefix,
      key_hash: key.hash,
      name: key.name ?? null,
      created_at: key.createdAt,
    })
    .execute();
}

export async function listKeys(db: Executor, organizationId: string) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('environments as e', 'e.id', 'k.environment_id')
    .select(['k.id', 'k.kind', 'k.prefix', 'k.name', 'k.created_at', 'k.revoked_at', 'e.kind as environment'])
    .where('k.organization_id', '=', organizationId)
    .orderBy('k.created_at')
    .orderBy('k.prefix')
    .execute();
}

/** An organization's environment: what every query of its keys is scoped to. */
export interface KeyScope {
  organizationId: string;
  environmentId: string;
}

/** One environment's keys (revoked ones too), newest first: never their hashes. */
export async function environmentKeys(db: Executor, scope: KeyScope, page: { limit: number; offset: number }) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'kind', 'prefix', 'name', 'created_at', 'revoked_at'])
    .where('organization_id', '=', scope.organizationId)
    .where('environment_id', '=', scope.environmentId)
    .orderBy('created_at', 'desc')
    .orderBy('prefix')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countEnvironmentKeys(db: Executor, scope: KeyScope): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', scope.organizationId)
    .where('environment_id', '=', scope.environmentId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The environment's key with this prefix, its row locked until the transaction ends. */
export async function lockEnvironmentKey(tx: Executor, scope: KeyScope, prefix: string) {
  return tx
    .selectFrom('api_keys')
    .select(['id', 'kind', 'prefix', 'name', 'key_hash', 'created_at', 'revoked_at'])
    .where('organization_id', '=', scope.organizationId)
    .where('environment_id', '=', scope.environmentId)
    .where('prefix', '=', prefix)
    .forUpdate()
    .executeTakeFirst();
}

export async function revokeKeyById(tx: Executor, id: string, at: Date): Promise<void> {
  await tx.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).execute();
}

export async function revokeKeyByPrefix(db: Executor, prefix: string, at: Date) {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('prefix', '=', prefix)
    .where('revoked_at', 'is', null)
    .returning(['id', 'prefix', 'kind', 'key_hash'])
    .executeTakeFirst();
}

export async function findKeyPrefixByHash(db: Executor, hash: string) {
  return db.selectFrom('api_keys').select('prefix').where('key_hash', '=', hash).executeTakeFirst();
}

/** Tells every running server, once the transaction commits, that the key with this hash is revoked. */
export async function announceKeyRevoked(tx: Executor, keyHash: string): Promise<void> {
  await sql`select pg_notify(${KEY_REVOKED_CHANNEL}, ${keyHash})`.execute(tx);
}

/** How many of the keys with these hashes belong to the organization and are not revoked. */
export async function countLiveKeys(db: Executor, organizationId: string, hashes: string[]): Promise<number> {
  const rows = await db
    .selectFrom('api_keys')
    .select('id')
    .where('key_hash', 'in', hashes)
    .where('revoked_at', 'is', null)
    .where('organization_id', '=', organizationId)
    .execute();
  return rows.length;
}

export async function findKeyByPrefix(db: Executor, prefix: string) {
  return db.selectFrom('api_keys').select(['id', 'revoked_at']).where('prefix', '=', prefix).executeTakeFirst();
}

export async function findOrganization(db: Executor, id: string) {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countOrganizations(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertPartner(db: Executor, partner: { id: string; name: string; createdAt: Date }) {
  await db.insertInto('partners').values({ id: partner.id, name: partner.name, created_at: partner.createdAt }).execute();
}

/** Whether (since when, and why) the organization is blocked from taking payments. */
export async function organizationBlock(db: Executor, organizationId: string) {
  return db.selectFrom('organizations').select(['blocked_at', 'blocked_reason']).where('id', '=', organizationId).executeTakeFirst();
}

/** The same, with the organization's row locked until the transaction ends. */
export async function lockOrganizationBlock(tx: Executor, organizationId: string) {
  return tx
    .selectFrom('organizations')
    .select(['blocked_at', 'blocked_reason'])
    .where('id', '=', organizationId)
    .forUpdate()
    .executeTakeFirst();
}

export async function setOrganizationBlock(
  tx: Executor,
  organizationId: string,
  block: { blocked_at: Date | null; blocked_reason: string | null },
) {
  return tx
    .updateTable('organizations')
    .set(block)
    .where('id', '=', organizationId)
    .returning(['blocked_at', 'blocked_reason'])
    .executeTakeFirstOrThrow();
}

/** An environment by id: its organization and kind (background work knows only the id). */
export async function environmentById(db: Executor, id: string) {
  return db.selectFrom('environments').select(['id', 'organization_id', 'kind']).where('id', '=', id).executeTakeFirst();
}
