import type { Executor } from '../../db/transaction.js';

export const EXTERNAL_ID_INDEX = 'organizations_partner_external_id_key';
export const OWNER_EMAIL_INDEX = 'organizations_owner_email_key';

const columns = ['id', 'name', 'slug', 'owner_email', 'partner_external_id', 'created_at'] as const;

export async function findByExternalId(db: Executor, partnerId: string, externalId: string) {
  return db
    .selectFrom('organizations')
    .select(columns)
    .where('partner_id', '=', partnerId)
    .where('partner_external_id', '=', externalId)
    .executeTakeFirst();
}

export async function findById(db: Executor, partnerId: string, id: string) {
  return db
    .selectFrom('organizations')
    .select(columns)
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function emailTaken(db: Executor, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('organizations')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['owner_email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  return row !== undefined;
}

export async function listForPartner(db: Executor, partnerId: string, externalId?: string) {
  let query = db.selectFrom('organizations').select(columns).where('partner_id', '=', partnerId);
  if (externalId !== undefined) query = query.where('partner_external_id', '=', externalId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1000).execute();
}
