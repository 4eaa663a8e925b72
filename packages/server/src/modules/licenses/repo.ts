import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { LicenseInstancesTable, LicensesTable, SubscriptionsTable } from '../../db/schema.js';

export type LicenseRow = Selectable<LicensesTable>;
export type InstanceRow = Selectable<LicenseInstancesTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;

/**
 * A key of one environment. Keys are unique per environment (licenses_key_key),
 * so a key of another environment is simply not found. With `forUpdate` the
 * row stays locked until the transaction ends: activations and deactivations
 * of one key run one after the other.
 */
export async function findLicense(
  db: Executor,
  environmentId: string,
  licenseKey: string,
  options: { forUpdate?: boolean } = {},
): Promise<LicenseRow | undefined> {
  const query = db
    .selectFrom('licenses')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('license_key', '=', licenseKey);
  return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

/**
 * A key by its id, when it belongs to the customer of that customerId in the environment (archived or
 * not); locked with `forUpdate`, as findLicense locks it.
 */
export async function findCustomerLicense(
  db: Executor,
  environmentId: string,
  customerId: string,
  licenseId: string,
  options: { forUpdate?: boolean } = {},
): Promise<LicenseRow | undefined> {
  const query = db
    .selectFrom('licenses as l')
    .innerJoin('customers as c', 'c.id', 'l.customer_id')
    .selectAll('l')
    .where('l.environment_id', '=', environmentId)
    .where('c.environment_id', '=', environmentId)
    .where('c.customer_id', '=', customerId)
    .where('l.id', '=', licenseId);
  return (options.forUpdate ? query.forUpdate('l') : query).executeTakeFirst();
}

export async function findCustomer(db: Executor, environmentId: string, id: string) {
  return db
    .selectFrom('customers')
    .select(['customer_id', 'name', 'email'])
    .where('environment_id', '=', environmentId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The plan version a key was sold with, its plan and its product. */
export async function findPlan(db: Executor, environmentId: string, planVersionId: string) {
  return db
    .selectFrom('plan_versions as v')
    .innerJoin('plans as p', 'p.id', 'v.plan_id')
    .innerJoin('products as pr', 'pr.id', 'p.product_id')
    .select([
      'v.name',
      'v.description',
      'v.version',
      'p.identifier',
      'p.published_version',
      'pr.id as product_id',
      'pr.identifier as product_identifier',
      'pr.name as product_name',
      'pr.tax_code as product_tax_code',
      'pr.created_at as product_created_at',
      'pr.modified_at as product_modified_at',
    ])
    .where('v.environment_id', '=', environmentId)
    .where('v.id', '=', planVersionId)
    .executeTakeFirst();
}

export interface LicenseUsage {
  /** Instances active now. */
  active: number;
  /** The first activation ever, deactivated or not. */
  firstActivatedAt: Date | null;
}

/** Activation usage of keys, by key id (license_instances_license_idx). */
export async function usageOf(db: Executor, environmentId: string, licenseIds: string[]): Promise<Map<string, LicenseUsage>> {
  const usage = new Map<string, LicenseUsage>();
  if (licenseIds.length === 0) return usage;
  const rows = await db
    .selectFrom('license_instances')
    .select((eb) => [
      'license_id',
      eb.fn.countAll<number>().filterWhere('deactivated_at', 'is', null).as('active'),
      eb.fn.min('created_at').as('first'),
    ])
    .where('environment_id', '=', environmentId)
    .where('license_id', 'in', licenseIds)
    .groupBy('license_id')
    .execute();
  for (const row of rows) {
    usage.set(row.license_id, { active: Number(row.active), firstActivatedAt: row.first ? new Date(row.first) : null });
  }
  return usage;
}

export async function insertInstance(
  db: Executor,
  row: { id: string; environmentId: string; licenseId: string; name: string; metadata: Record<string, unknown>; at: Date },
): Promise<InstanceRow> {
  return db
    .insertInto('license_instances')
    .values({
      id: row.id,
      environment_id: row.environmentId,
      license_id: row.licenseId,
      name: row.name,
      metadata: JSON.stringify(row.metadata),
      created_at: row.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findInstance(
  db: Executor,
  environmentId: string,
  licenseId: string,
  instanceId: string,
): Promise<InstanceRow | undefined> {
  return db
    .selectFrom('license_instances')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('license_id', '=', licenseId)
    .where('id', '=', instanceId)
    .executeTakeFirst();
}

/** Deactivates an active instance; undefined when it was not active (any more). */
export async function deactivateInstance(db: Executor, instanceId: string, at: Date): Promise<InstanceRow | undefined> {
  return db
    .updateTable('license_instances')
    .set({ deactivated_at: at })
    .where('id', '=', instanceId)
    .where('deactivated_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** "Last seen": the newest validation of an active instance. */
export async function touchInstance(db: Executor, instanceId: string, at: Date): Promise<void> {
  await db
    .updateTable('license_instances')
    .set({ last_validated_at: at })
    .where('id', '=', instanceId)
    .where('deactivated_at', 'is', null)
    .execute();
}

/**
 * The subscription a key was sold with, or the newest successor it became
 * through plan changes (successors that never took effect are skipped).
 */
export async function currentSubscription(
  db: Executor,
  environmentId: string,
  subscriptionId: string,
): Promise<SubscriptionRow | undefined> {
  const { rows } = await sql<SubscriptionRow & { depth: number }>`
    WITH RECURSIVE chain AS (
      SELECT s.*, 0 AS depth FROM subscriptions s
      WHERE s.id = ${subscriptionId} AND s.environment_id = ${environmentId}
      UNION ALL
      SELECT s.*, chain.depth + 1 FROM subscriptions s
      JOIN chain ON s.previous_subscription_id = chain.id
      WHERE s.environment_id = ${environmentId}
        AND s.status NOT IN ('incomplete', 'incomplete_expired')
        AND chain.depth < 1000
    )
    SELECT * FROM chain ORDER BY depth DESC LIMIT 1`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const { depth: _depth, ...subscription } = row;
  return subscription;
}

/** A customer's keys (customers.id), newest first, with the name of the plan each was sold with. */
export async function licensesOfCustomer(db: Executor, environmentId: string, customerPk: string) {
  return db
    .selectFrom('licenses as l')
    .innerJoin('plan_versions as v', 'v.id', 'l.plan_version_id')
    .select(['l.id', 'l.license_key', 'l.activation_limit', 'l.activation_limit_enabled', 'l.expires_on', 'l.enabled', 'l.created_at', 'v.name as plan_name'])
    .where('l.environment_id', '=', environmentId)
    .where('l.customer_id', '=', customerPk)
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id')
    .execute();
}

/** The active instances of some keys, oldest first. */
export async function activeInstancesOf(db: Executor, environmentId: string, licenseIds: string[]): Promise<InstanceRow[]> {
  if (licenseIds.length === 0) return [];
  return db
    .selectFrom('license_instances')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('license_id', 'in', licenseIds)
    .where('deactivated_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
