/**
 * What a renewal reads, in one statement: the subscription with everything its renewal
 * needs, locked (phase (c), and phase (a) when it runs in a transaction), or unlocked
 * with its customer and the renewal's intent (the quote that prices phase (a)).
 */
import { sql, type RawBuilder, type Selectable } from 'kysely';
import { PREPARED_END } from '../../../db/prepared.js';
import { rowFromJson, TIMESTAMP_COLUMNS } from '../../../db/json-rows.js';
import { isUuid } from '../../../db/search.js';
import type { Executor } from '../../../db/transaction.js';
import type { CustomersTable, PaymentIntentsTable, PaymentMethodsTable, SubscriptionsTable } from '../../../db/schema.js';
import { subscribedRowsFromJson, type SubscribedRows } from '../../catalog/queries.js';
import { UNPAID_INVOICE } from '../repo.js';

/** What a renewal reads once its subscription is locked. */
export interface RenewalReads {
  row: Selectable<SubscriptionsTable>;
  hasUnpaidInvoice: boolean;
  /** Usage counters of the current period (the one that ends), by feature id. */
  usage: Record<string, number>;
  /** The subscription's product, plan, version and price; undefined when one is missing. */
  catalog: SubscribedRows | undefined;
  /** The customer's saved method a charge takes first (as `findUsableMethod` picks it), if any. */
  usableMethod: Selectable<PaymentMethodsTable> | undefined;
  /** A discount with cycles left rides with the subscription (the discounts module takes one per renewal). */
  hasDiscount: boolean;
  /** The newer version and price the subscription's next period may be sold at (decision 0113). */
  successor: PricingSuccessor | undefined;
}

/** A newer version of the subscription's plan, published with updatePricing, and its price in the subscription's currency. */
export type PricingSuccessor = Pick<SubscribedRows, 'version' | 'price'>;

/** The quote's reads: the renewal's, with its customer and the intent recorded under the renewal's key. */
export interface RenewalQuoteReads extends RenewalReads {
  customer: Selectable<CustomersTable>;
  intent: Selectable<PaymentIntentsTable> | undefined;
}

type Json = Record<string, unknown> | null;
type RenewalJson = Record<'renewal_product' | 'renewal_plan' | 'renewal_version' | 'renewal_price' | 'renewal_method' | 'renewal_successor', Json>;

/**
 * The pricing successor of the subscription `s` as JSON ({version, price}), or null: the newest
 * version of its plan newer than its own, published with updatePricing, that has an enabled price
 * in the subscription's currency with the same tax behaviour (the first such price of the version).
 */
const successorJson = sql<Json>`(SELECT jsonb_build_object('version', to_jsonb(nv), 'price', to_jsonb(np))
    FROM plan_versions ov
    JOIN plan_prices op ON op.id = s.price_id
    JOIN plan_versions nv ON nv.plan_id = ov.plan_id AND nv.version > ov.version
    JOIN plan_prices np ON np.plan_version_id = nv.id
   WHERE ov.id = s.plan_version_id
     AND nv.published_at IS NOT NULL AND nv.publish_options ->> 'updatePricing' = 'true'
     AND np.enabled AND np.currency = op.currency AND np.tax_behavior = op.tax_behavior
   ORDER BY nv.version DESC, np.position
   LIMIT 1)`;

function successorOf(json: Json): PricingSuccessor | undefined {
  const version = rowFromJson<PricingSuccessor['version']>(json?.version as Json, TIMESTAMP_COLUMNS.plan_versions);
  const price = rowFromJson<PricingSuccessor['price']>(json?.price as Json, TIMESTAMP_COLUMNS.plan_prices);
  return version && price ? { version, price } : undefined;
}

/** The subscription's pricing successor (see successorJson), read alone: for the upcoming invoice. */
export async function findPricingSuccessor(db: Executor, environmentId: string, subscriptionId: string): Promise<PricingSuccessor | undefined> {
  const found = await db
    .selectFrom('subscriptions as s')
    .select(successorJson.as('successor'))
    .where('s.environment_id', '=', environmentId)
    .where('s.id', '=', subscriptionId)
    .executeTakeFirst();
  return successorOf(found?.successor ?? null);
}

function readsQuery(db: Executor, scope: { environmentId: string; organizationId: string }, id: string) {
  return db
    .selectFrom('subscriptions as s')
    .selectAll('s')
    .select((eb) => [
      eb
        .exists(eb.selectFrom('invoices as i').select('i.id').whereRef('i.subscription_id', '=', 's.id').where('i.status', 'in', [...UNPAID_INVOICE]))
        .as('renewal_has_unpaid_invoice'),
      sql<boolean>`EXISTS (SELECT 1 FROM subscription_discounts sd
        WHERE sd.subscription_id = s.id AND (sd.cycles_remaining IS NULL OR sd.cycles_remaining > 0))`.as('renewal_has_discount'),
      sql<Record<string, number>>`(SELECT coalesce(jsonb_object_agg(u.feature_id, u.value), '{}'::jsonb) FROM usage_counters u
        WHERE u.subscription_id = s.id AND u.period_start = s.current_period_start)`.as('renewal_usage'),
      sql<Json>`(SELECT to_jsonb(p) FROM products p WHERE p.id = s.product_id AND p.environment_id = s.environment_id)`.as('renewal_product'),
      sql<Json>`(SELECT to_jsonb(pl) FROM plans pl WHERE pl.id = s.plan_id)`.as('renewal_plan'),
      sql<Json>`(SELECT to_jsonb(v) FROM plan_versions v WHERE v.id = s.plan_version_id)`.as('renewal_version'),
      sql<Json>`(SELECT to_jsonb(pr) FROM plan_prices pr WHERE pr.id = s.price_id)`.as('renewal_price'),
      sql<Json>`(SELECT to_jsonb(m) FROM payment_methods m
        WHERE m.environment_id = s.environment_id AND m.customer_id = s.customer_id AND m.status = 'succeeded' AND m.deleted_at IS NULL
        ORDER BY m.is_default DESC, m.id DESC LIMIT 1)`.as('renewal_method'),
      successorJson.as('renewal_successor'),
    ])
    .where('s.environment_id', '=', scope.environmentId)
    .where('s.id', '=', id);
}

type Found = NonNullable<Awaited<ReturnType<ReturnType<typeof readsQuery>['executeTakeFirst']>>>;

function readsOf(found: Found): RenewalReads {
  const { renewal_has_unpaid_invoice: hasUnpaid, renewal_has_discount: hasDiscount, renewal_usage: usage, ...rest } = found;
  const { renewal_product, renewal_plan, renewal_version, renewal_price, renewal_method, renewal_successor, ...row } = rest as typeof rest & RenewalJson;
  return {
    row: row as Selectable<SubscriptionsTable>,
    hasUnpaidInvoice: Boolean(hasUnpaid),
    usage,
    catalog: subscribedRowsFromJson({ product: renewal_product, plan: renewal_plan, version: renewal_version, price: renewal_price }),
    usableMethod: rowFromJson(renewal_method, TIMESTAMP_COLUMNS.payment_methods),
    hasDiscount: Boolean(hasDiscount),
    successor: successorOf(renewal_successor),
  };
}

/**
 * The subscription locked, with everything its renewal reads, in one statement (six
 * otherwise). Call it with the customer locked: every change to the subscription, its
 * invoices and the customer's methods is made under that lock, so nothing waits here and
 * the reads, from this statement's snapshot, see what the lock protects.
 */
export async function lockSubscriptionForRenewal(
  db: Executor,
  scope: { environmentId: string; organizationId: string },
  id: string,
  /** An expression the statement evaluates too (the entitlement change's pg_notify), or null. */
  notice: RawBuilder<unknown> | null = null,
): Promise<RenewalReads | undefined> {
  if (!isUuid(id)) return undefined;
  const found = await readsQuery(db, scope, id)
    .$if(notice !== null, (query) => query.select(notice!.as('renewal_notice')))
    .forUpdate()
    .modifyEnd(PREPARED_END)
    .executeTakeFirst();
  if (!found) return undefined;
  delete (found as { renewal_notice?: unknown }).renewal_notice;
  return readsOf(found);
}

/**
 * The renewal's reads without a lock or a transaction, with its customer and the intent
 * recorded under the renewal's claim (`scope` and `key` of payment_intents), if any: all
 * from one snapshot, for the quote that prices the renewal's payment.
 */
export async function renewalQuoteReads(
  db: Executor,
  scope: { environmentId: string; organizationId: string },
  id: string,
  claim: { scope: string; key: string },
): Promise<RenewalQuoteReads | undefined> {
  if (!isUuid(id)) return undefined;
  const found = await readsQuery(db, scope, id)
    .select([
      sql<Json>`(SELECT to_jsonb(c) FROM customers c WHERE c.id = s.customer_id)`.as('renewal_customer'),
      sql<Json>`(SELECT to_jsonb(pi) FROM payment_intents pi WHERE pi.idempotency_scope = ${claim.scope} AND pi.idempotency_key = ${claim.key})`.as(
        'renewal_intent',
      ),
    ])
    .modifyEnd(PREPARED_END)
    .executeTakeFirst();
  if (!found) return undefined;
  const { renewal_customer: customer, renewal_intent: intent, ...reads } = found;
  return {
    ...readsOf(reads),
    customer: rowFromJson<Selectable<CustomersTable>>(customer, TIMESTAMP_COLUMNS.customers)!,
    intent: rowFromJson<Selectable<PaymentIntentsTable>>(intent, TIMESTAMP_COLUMNS.payment_intents),
  };
}
