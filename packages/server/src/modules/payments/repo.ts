import { PREPARED_END } from '../../db/prepared.js';
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { CustomersTable, PaymentMethodsTable } from '../../db/schema.js';

export type PaymentMethodRow = Selectable<PaymentMethodsTable>;

/** The customer fields a payment method is shown with. */
export type PaymentMethodOwner = Pick<
  Selectable<CustomersTable>,
  'id' | 'customer_id' | 'name' | 'email' | 'billing_address'
>;

export interface ListedPaymentMethod {
  method: PaymentMethodRow;
  owner: PaymentMethodOwner;
}

export const ONE_DEFAULT_CONSTRAINT = 'payment_methods_one_default';

export async function insertPaymentMethod(
  db: Executor,
  row: {
    environmentId: string;
    customerId: string;
    methodType: string;
    brand: string;
    last4: string;
    expMonth: number;
    expYear: number;
    funding: string;
    country: string;
    providerRef: string;
    status: 'succeeded' | 'requires_action';
    isDefault: boolean;
    at: Date;
  },
): Promise<PaymentMethodRow> {
  return db
    .insertInto('payment_methods')
    .values({
      environment_id: row.environmentId,
      customer_id: row.customerId,
      method_type: row.methodType,
      brand: row.brand,
      last4: row.last4,
      exp_month: row.expMonth,
      exp_year: row.expYear,
      funding: row.funding,
      country: row.country,
      provider_ref: row.providerRef,
      status: row.status,
      is_default: row.isDefault,
      created_at: row.at,
      modified_at: row.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A method of the environment that has not been deleted. */
export async function findPaymentMethod(
  db: Executor,
  environmentId: string,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<PaymentMethodRow | undefined> {
  let query = db
    .selectFrom('payment_methods')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The customer's current default method (not deleted), if any. */
export async function findDefaultMethod(
  db: Executor,
  environmentId: string,
  customerId: string,
): Promise<PaymentMethodRow | undefined> {
  return db
    .selectFrom('payment_methods')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('customer_id', '=', customerId)
    .where('is_default', '=', true)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The default succeeded method, else the newest succeeded one. */
export async function findUsableMethod(
  db: Executor,
  environmentId: string,
  customerId: string,
): Promise<PaymentMethodRow | undefined> {
  return db
    .selectFrom('payment_methods')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('customer_id', '=', customerId)
    .where('status', '=', 'succeeded')
    .where('deleted_at', 'is', null)
    .orderBy('is_default', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .modifyEnd(PREPARED_END)
    .executeTakeFirst();
}

export async function setDefaultFlag(
  db: Executor,
  id: number,
  isDefault: boolean,
  at: Date,
): Promise<PaymentMethodRow> {
  return db
    .updateTable('payment_methods')
    .set({ is_default: isDefault, modified_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes a method (kept, marked deleted): it is no longer listed, charged nor the default. */
export async function deletePaymentMethod(db: Executor, id: number, at: Date): Promise<PaymentMethodRow> {
  return db
    .updateTable('payment_methods')
    .set({ deleted_at: at, is_default: false, modified_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Locks the customer row: the one lock every change to a customer's money or methods takes. */
export async function lockCustomerById(
  db: Executor,
  environmentId: string,
  id: string,
): Promise<(PaymentMethodOwner & { archived_at: Date | null }) | undefined> {
  return db
    .selectFrom('customers')
    .select(['id', 'customer_id', 'name', 'email', 'billing_address', 'archived_at'])
    .where('environment_id', '=', environmentId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export interface ListFilter {
  environmentId: string;
  customerId?: string;
  customerEmail?: string;
}

function listQuery(db: Executor, filter: ListFilter) {
  let query = db
    .selectFrom('payment_methods as pm')
    .innerJoin('customers as c', 'c.id', 'pm.customer_id')
    .where('pm.environment_id', '=', filter.environmentId)
    .where('pm.status', '=', 'succeeded')
    .where('pm.deleted_at', 'is', null);
  if (filter.customerId !== undefined) {
    query = query.where('c.environment_id', '=', filter.environmentId).where('c.customer_id', '=', filter.customerId);
  }
  if (filter.customerEmail !== undefined) {
    query = query.where((eb) => eb(eb.fn('lower', ['c.email']), '=', filter.customerEmail!.toLowerCase()));
  }
  return query;
}

export async function countPaymentMethods(db: Executor, filter: ListFilter): Promise<number> {
  const row = await listQuery(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Newest first: ids are assigned in insertion order. */
export async function listPaymentMethods(
  db: Executor,
  filter: ListFilter,
  limit: number,
  offset: number,
): Promise<ListedPaymentMethod[]> {
  const rows = await listQuery(db, filter)
    .selectAll('pm')
    .select([
      'c.id as owner_id',
      'c.customer_id as owner_customer_id',
      'c.name as owner_name',
      'c.email as owner_email',
      'c.billing_address as owner_billing_address',
    ])
    .orderBy('pm.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(({ owner_id, owner_customer_id, owner_name, owner_email, owner_billing_address, ...method }) => ({
    method,
    owner: {
      id: owner_id,
      customer_id: owner_customer_id,
      name: owner_name,
      email: owner_email,
      billing_address: owner_billing_address,
    },
  }));
}

/** The method the customer's newest active or trialing subscription pays with, when it is still usable. */
export async function subscriptionMethodOf(db: Executor, customerPk: string): Promise<PaymentMethodRow | undefined> {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('payment_methods as m', 'm.id', 's.payment_method_id')
    .selectAll('m')
    .where('s.customer_id', '=', customerPk)
    .where('s.status', 'in', ['active', 'trialing'])
    .where('m.status', '=', 'succeeded')
    .where('m.deleted_at', 'is', null)
    .orderBy('s.seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}
