import type { Insertable, Selectable } from 'kysely';
import type { SellerLogosTable, SellerProfilesTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

export type ProfileRow = Selectable<SellerProfilesTable>;

/** The environment's profile, locked for an update when `forUpdate`; undefined until first set. */
export async function findProfile(db: Executor, environmentId: string, options: { forUpdate?: boolean } = {}): Promise<ProfileRow | undefined> {
  const query = db.selectFrom('seller_profiles').selectAll().where('environment_id', '=', environmentId);
  return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

/** Writes the profile (first set, or the next version of it). */
export async function saveProfile(db: Executor, row: Insertable<SellerProfilesTable>): Promise<ProfileRow> {
  const { environment_id: _key, created_at: _created, ...changes } = row;
  return db
    .insertInto('seller_profiles')
    .values(row)
    .onConflict((oc) => oc.column('environment_id').doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The organization's name: the display name until the seller sets one. */
export async function organizationName(db: Executor, organizationId: string): Promise<string> {
  const row = await db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirstOrThrow();
  return row.name;
}

/** The organization's environment of this kind; undefined when there is no such organization. */
export async function environmentOf(db: Executor, organizationId: string, kind: 'sandbox' | 'production') {
  return db.selectFrom('environments').select('id').where('organization_id', '=', organizationId).where('kind', '=', kind).executeTakeFirst();
}

export async function environmentsOfOrganization(db: Executor, organizationId: string) {
  return db.selectFrom('environments').select('id').where('organization_id', '=', organizationId).orderBy('kind').execute();
}

export type LogoRow = Selectable<SellerLogosTable>;

/** The environment's logo (one per environment: a new one replaces it). */
export async function saveLogo(db: Executor, row: Insertable<SellerLogosTable>): Promise<void> {
  const { environment_id: _key, ...changes } = row;
  await db.insertInto('seller_logos').values(row).onConflict((oc) => oc.column('environment_id').doUpdateSet(changes)).execute();
}

export async function deleteLogo(db: Executor, environmentId: string): Promise<void> {
  await db.deleteFrom('seller_logos').where('environment_id', '=', environmentId).execute();
}

/** The logo with this digest, when it is still the environment's. */
export async function findLogo(db: Executor, environmentId: string, digest: string): Promise<LogoRow | undefined> {
  return db.selectFrom('seller_logos').selectAll().where('environment_id', '=', environmentId).where('digest', '=', digest).executeTakeFirst();
}

/** The environment's current logo, whatever its digest. */
export async function currentLogo(db: Executor, environmentId: string): Promise<LogoRow | undefined> {
  return db.selectFrom('seller_logos').selectAll().where('environment_id', '=', environmentId).executeTakeFirst();
}
