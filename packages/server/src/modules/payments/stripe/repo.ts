import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../../db/transaction.js';
import type { PaymentProvidersTable } from '../../../db/schema.js';

export type ProviderConfigRow = Selectable<PaymentProvidersTable>;

export async function findProviderConfig(db: Executor, environmentId: string): Promise<ProviderConfigRow | undefined> {
  return db.selectFrom('payment_providers').selectAll().where('environment_id', '=', environmentId).executeTakeFirst();
}

export async function upsertProviderConfig(db: Executor, row: Insertable<PaymentProvidersTable>): Promise<ProviderConfigRow> {
  return db
    .insertInto('payment_providers')
    .values(row)
    .onConflict((oc) =>
      oc.column('environment_id').doUpdateSet({
        provider: row.provider,
        secret_key_sealed: row.secret_key_sealed,
        secret_key_hint: row.secret_key_hint,
        webhook_secret_sealed: row.webhook_secret_sealed,
        webhook_secret_hint: row.webhook_secret_hint,
        publishable_key: row.publishable_key ?? null,
        updated_at: row.updated_at,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteProviderConfig(db: Executor, environmentId: string): Promise<boolean> {
  const deleted = await db.deleteFrom('payment_providers').where('environment_id', '=', environmentId).returning('environment_id').executeTakeFirst();
  return deleted !== undefined;
}

/** The environment of a Stripe webhook URL, with its organization; undefined for an unknown id. */
export async function findEnvironment(db: Executor, environmentId: string) {
  return db.selectFrom('environments').select(['id', 'organization_id', 'kind']).where('id', '=', environmentId).executeTakeFirst();
}

/** Records a Stripe event as handled; false when it was handled before (a redelivery). */
export async function claimProviderEvent(db: Executor, environmentId: string, eventId: string, type: string, at: Date): Promise<boolean> {
  const inserted = await db
    .insertInto('provider_events')
    .values({ environment_id: environmentId, event_id: eventId, type, received_at: at })
    .onConflict((oc) => oc.columns(['environment_id', 'event_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The Stripe customer already holding one of this customer's methods, to attach new ones to. */
export async function stripeCustomerOf(db: Executor, environmentId: string, customerPk: string): Promise<string | null> {
  const row = await db
    .selectFrom('payment_methods')
    .select('provider_ref')
    .where('environment_id', '=', environmentId)
    .where('customer_id', '=', customerPk)
    .where('provider_ref', 'like', 'cus\\_%/pm\\_%')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? row.provider_ref.split('/')[0]! : null;
}

export async function providerEventSeen(db: Executor, environmentId: string, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('provider_events')
    .select('event_id')
    .where('environment_id', '=', environmentId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function environmentOfOrganization(db: Executor, organizationId: string, kind: 'sandbox' | 'production') {
  return db.selectFrom('environments').select(['id', 'organization_id']).where('organization_id', '=', organizationId).where('kind', '=', kind).executeTakeFirst();
}
