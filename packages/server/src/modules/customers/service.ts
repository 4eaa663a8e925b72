import type { BillingAddress, Customer, CustomerCreate, CustomerLicenseList, CustomerUpdate } from '@billow/contract';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { addressInCountry, countryOfAddress, normalizeCountry } from '../../lib/countries.js';
import { metadataProblem } from '../../lib/metadata.js';
import type { Db } from '../../db/connect.js';
import { inTransaction, isUniqueViolation, type Executor, type Tx } from '../../db/transaction.js';
import { camelToSnake } from '../../lib/casing.js';
import { changeRecordingEvents, recordEvent } from '../events/writer.js';
import { countCustomerEvents, customerEvents, summarizeEvent } from '../events/queries.js';
import { customerLicenses } from '../licenses/queries.js';
import type { EntitlementChanges } from '../../edge-cache/change-feed.js';
import type { PageRequest } from '../../lib/pagination.js';
import type { AnswerKeeper } from '../../db/answer-keeper.js';
import * as repo from './repo.js';
import { recordAudit, type AuditableScope } from '../audit/queries.js';
import type { StoredTaxId } from '../../db/schema.js';
import { checkedTaxIds, NO_ONLINE_CHECK, type TaxIdVerifier } from './tax-ids.js';
import {
  customerAlreadyArchived,
  customerArchived,
  customerExists,
  customerHasAnySubscription,
  customerHasSubscriptions,
  customerOnTestClock,
  clockAdvancing,
  clockBeforeCustomer,
  customerIdRetired,
  customerIdUnaddressable,
  customerNotFound,
  invalidCountry,
  invalidLocale,
  invalidMetadata,
  testClockFull,
  testClocksSandboxOnly,
  testClockNotFound,
  testClockUnknown,
} from './errors.js';

/**
 * What archiving needs of the subscriptions module, handed in by app.ts so that
 * customers (which most modules read) depends on none of them.
 */
export interface CustomerSubscriptions {
  /** How many of the customer's subscriptions would bill again. */
  countBilling(tx: Tx, environmentId: string, customerPk: string): Promise<number>;
  /** Ends them in the caller's transaction. */
  endBilling(tx: Tx, scope: CustomerScope, customerPk: string, at: Date, reason: string): Promise<number>;
}

/** Ids that the official client, which does not encode path segments, could never address. */
const unaddressable = (customerId: string) => customerId === '.' || customerId === '..' || /[/?#%]/.test(customerId);

export interface CustomerScope {
  environmentId: string;
  organizationId: string;
  environment: 'sandbox' | 'production';
}

/** The snake_case object of customer webhooks. */
function customerEventObject(row: repo.NewCustomerRow, subscriptions: number) {
  const address = (row.billing_address ?? {}) as Record<string, unknown>;
  return {
    id: row.id,
    object: 'customer',
    customer_id: row.customer_id,
    name: row.name,
    email: row.email,
    details: row.details,
    metadata: row.metadata,
    billing_address: Object.fromEntries(Object.entries(address).map(([k, v]) => [camelToSnake(k), v])),
    tax_ids: (row.tax_ids ?? []).map((t) => ({ type: t.type, value: t.value, country: t.country, verification: t.verification.status })),
    subscriptions,
    is_archived: row.archived_at !== null,
    created_on: row.created_at.toISOString(),
    modified_on: row.modified_at.toISOString(),
  };
}

/** The fields a change touched, with their values before it, for previous_attributes. */
function previousAttributes(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (key !== 'modified_on' && JSON.stringify(before[key]) !== JSON.stringify(after[key])) changed[key] = before[key];
  }
  return changed;
}

/** The tax ids an update asks for: taxIds, else the older single taxId; undefined: left alone. */
function requestedTaxIds(input: CustomerUpdate): CustomerUpdate['taxIds'] {
  if (input.taxIds !== undefined) return input.taxIds;
  if (input.taxId === undefined) return undefined;
  return input.taxId?.trim() ? [{ value: input.taxId }] : null;
}

export function toCustomer(row: repo.NewCustomerRow): Customer {
  return {
    id: row.id,
    customerId: row.customer_id,
    name: row.name,
    email: row.email,
    details: row.details,
    metadata: row.metadata,
    billingAddress: row.billing_address as BillingAddress | null,
    isArchived: row.archived_at !== null,
    // Ours, like testClockId: absent when there are none, so the reference's customer is unchanged.
    ...(row.tax_ids?.length ? { taxIds: row.tax_ids as NonNullable<Customer['taxIds']> } : {}),
    ...(row.test_clock_id ? { testClockId: row.test_clock_id } : {}),
    ...(row.locale ? { locale: row.locale } : {}),
    createdOn: row.created_at.toISOString(),
    modifiedOn: row.modified_at.toISOString(),
  };
}

/** A language tag in its canonical form ("ja-jp" is "ja-JP"); null clears it, undefined leaves it. */
function checkedLocale(locale: string | null | undefined): string | null | undefined {
  if (locale === undefined || locale === null) return locale;
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? null;
  } catch {
    throw invalidLocale(locale);
  }
}

function checkedMetadata(metadata: Record<string, unknown> | null | undefined): Record<string, unknown> | undefined {
  if (metadata === undefined) return undefined;
  if (metadata === null) return {};
  const problem = metadataProblem(metadata);
  if (problem) throw invalidMetadata(problem);
  return metadata;
}

function checkedAddress(address: BillingAddress | null | undefined): Record<string, unknown> | null | undefined {
  if (address === undefined || address === null) return address;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(address)) {
    if (value === undefined) continue;
    out[key] = typeof value === 'string' ? value.trim() : value;
  }
  if (typeof address.country === 'string') {
    const country = normalizeCountry(address.country);
    if (!country) {
      throw invalidCountry(address.country);
    }
    out.country = country;
  }
  return out;
}

const normalizeEmail = (email: string | null | undefined) =>
  email === undefined || email === null ? email : email.trim();

/** The new customer and its `customer.created` event (with its deliveries), in one statement; returns its row. */
async function insertWithEvent(db: Executor, scope: CustomerScope, customer: repo.NewCustomer) {
  const row = repo.newCustomerRow(customer);
  await changeRecordingEvents(db, repo.customerInsert(customer), [
    {
      environmentId: scope.environmentId,
      organizationId: scope.organizationId,
      type: 'customer.created',
      data: customerEventObject(row, 0),
      at: row.created_at,
    },
  ]);
  return row;
}

/** Each advance of a clock runs every item of every customer on it: kept small, as test clocks are for tests. */
const MAX_CUSTOMERS_PER_CLOCK = 100;

export class CustomerService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly changes: EntitlementChanges | null,
    private readonly subscriptions: CustomerSubscriptions,
    /** Asks a register (VIES) about new tax ids, before any transaction; none by default. */
    private readonly verifyTaxId: TaxIdVerifier = NO_ONLINE_CHECK,
    /** Where lists are read: a replica that has caught up, when one is set (decision 0123). */
    private readonly reads: Db = db,
  ) {}

  /** The tax ids to keep, checked (the online check included) before the caller's transaction. */
  private taxIds(inputs: NonNullable<CustomerUpdate['taxIds']>, fallbackCountry: string | null, stored: StoredTaxId[]) {
    return checkedTaxIds(inputs, { fallbackCountry, stored, verify: this.verifyTaxId, now: this.clock.now() });
  }

  /**
   * One statement writes the customer with its `customer.created` event and the event's
   * deliveries (no BEGIN, no COMMIT, no read first): a taken customerId is answered by
   * the unique constraint, and the answer is built from the row as written (decision 0042).
   */
  async create(scope: CustomerScope, input: CustomerCreate, keep?: AnswerKeeper): Promise<Customer> {
    if (unaddressable(input.customerId)) throw customerIdUnaddressable(input.customerId);
    const billingAddress = checkedAddress(input.billingAddress) ?? null;
    const taxIds = input.taxIds?.length ? await this.taxIds(input.taxIds, countryOfAddress(billingAddress), []) : [];
    const customer = {
      id: newId(),
      environmentId: scope.environmentId,
      customerId: input.customerId,
      name: input.name ?? null,
      email: normalizeEmail(input.email) ?? null,
      metadata: checkedMetadata(input.metadata) ?? {},
      billingAddress,
      taxIds,
      locale: checkedLocale(input.locale) ?? null,
    };
    try {
      if (input.testClockId) return await this.createOnTestClock(scope, input.testClockId, customer, keep);
      // With an Idempotency-Key the answer is kept with the customer, so a retry after a crash replays it.
      if (keep) return await inTransaction(this.db, (tx) => this.insertAndKeep(tx, scope, { ...customer, testClockId: null, at: this.clock.now() }, keep));
      return toCustomer(await insertWithEvent(this.db, scope, { ...customer, testClockId: null, at: this.clock.now() }));
    } catch (error) {
      if (isUniqueViolation(error, repo.CUSTOMER_ID_CONSTRAINT)) throw await this.takenCustomerId(scope, input.customerId);
      throw error;
    }
  }

  private async insertAndKeep(tx: Executor, scope: CustomerScope, customer: repo.NewCustomer, keep?: AnswerKeeper): Promise<Customer> {
    const created = toCustomer(await insertWithEvent(tx, scope, customer));
    await keep?.keep(tx, created);
    return created;
  }

  /** A customer of a test clock: the clock is locked and counted first, in one transaction. */
  private createOnTestClock(scope: CustomerScope, testClockId: string, customer: Omit<repo.NewCustomer, 'testClockId' | 'at'>, keep?: AnswerKeeper) {
    return inTransaction(this.db, async (tx) => {
      const existing = await repo.findCustomer(tx, scope.environmentId, customer.customerId);
      if (existing) throw existing.archived_at ? customerIdRetired(customer.customerId) : customerExists(customer.customerId);
      const clock = await this.attachableClock(tx, scope, testClockId);
      // A customer of a test clock is created at the clock's time.
      return this.insertAndKeep(tx, scope, { ...customer, testClockId: clock.id, at: clock.frozen_time }, keep);
    });
  }

  private async takenCustomerId(scope: CustomerScope, customerId: string) {
    const existing = await repo.findCustomer(this.db, scope.environmentId, customerId);
    return existing?.archived_at ? customerIdRetired(customerId) : customerExists(customerId);
  }

  /** A test clock of the sandbox with room for one more customer, locked while it is attached. */
  private async attachableClock(tx: Tx, scope: CustomerScope, testClockId: string, missing = testClockUnknown) {
    if (scope.environment !== 'sandbox') throw testClocksSandboxOnly();
    const clock = await repo.lockTestClock(tx, scope.environmentId, testClockId);
    if (!clock) throw missing(testClockId);
    if ((await repo.countClockCustomers(tx, clock.id)) >= MAX_CUSTOMERS_PER_CLOCK) throw testClockFull(testClockId, MAX_CUSTOMERS_PER_CLOCK);
    return clock;
  }

  async get(scope: CustomerScope, customerId: string): Promise<Customer> {
    const row = await repo.findCustomer(this.db, scope.environmentId, customerId);
    if (!row) throw customerNotFound(customerId);
    return toCustomer(row);
  }

  /**
   * The customer's events, newest first (decision 0085): archived customers keep theirs. One
   * read for the customer (404 for an id never used here), then the count and the page.
   */
  async events(scope: CustomerScope, customerId: string, page: PageRequest) {
    const row = await repo.findCustomer(this.db, scope.environmentId, customerId);
    if (!row) throw customerNotFound(customerId);
    const [count, rows] = await Promise.all([countCustomerEvents(this.db, scope.environmentId, customerId), customerEvents(this.db, scope.environmentId, customerId, page)]);
    return { count, results: rows.map(summarizeEvent) };
  }

  /** The customer's license keys, newest first, each with its active instances (decision 0085); archived customers keep theirs. */
  async licenses(scope: CustomerScope, customerId: string): Promise<CustomerLicenseList> {
    const row = await repo.findCustomer(this.db, scope.environmentId, customerId);
    if (!row) throw customerNotFound(customerId);
    const keys = await customerLicenses(this.db, scope.environmentId, row.id);
    const iso = (at: Date | null) => (at ? at.toISOString() : null);
    return {
      licenses: keys.map((key) => ({
        id: key.id,
        licenseKey: key.licenseKey,
        planName: key.planName,
        enabled: key.enabled,
        expiresOn: iso(key.expiresOn),
        activationLimit: key.activationLimit,
        instances: key.instances.map((i) => ({ id: i.id, name: i.name, activatedOn: i.created_at.toISOString(), lastValidatedOn: iso(i.last_validated_at) })),
      })),
    };
  }

  async list(scope: CustomerScope, search: string | undefined, page: PageRequest, sort: repo.CustomerSort | null = null) {
    const term = search?.trim() || undefined;
    const { count, capped } = await repo.countCustomers(this.reads, scope.environmentId, term, page.countUpTo ?? null);
    const rows =
      page.offset >= count
        ? []
        : await repo.listCustomers(this.reads, scope.environmentId, term, { limit: page.pageSize, offset: page.offset, sort });
    return { count, capped, results: rows.map(toCustomer) };
  }

  async update(scope: CustomerScope, customerId: string, input: CustomerUpdate): Promise<Customer> {
    const metadata = checkedMetadata(input.metadata);
    const locale = checkedLocale(input.locale);
    const billingAddress = checkedAddress(input.billingAddress);
    const taxIds = await this.updatedTaxIds(scope, customerId, requestedTaxIds(input), billingAddress);
    return inTransaction(this.db, async (tx) => {
      const row = await repo.findCustomer(tx, scope.environmentId, customerId, { forUpdate: true });
      if (!row) throw customerNotFound(customerId);
      if (row.archived_at) throw customerArchived(customerId);
      const updated = await repo.updateCustomer(tx, row.id, {
        name: input.name,
        email: normalizeEmail(input.email),
        metadata,
        billingAddress,
        taxIds,
        locale,
        // A customer on a test clock lives by it: the change and its event are dated by the clock.
        at: (await repo.testClockTimeOf(tx, row.id)) ?? this.clock.now(),
      });
      await this.announceUpdate(tx, scope, row, updated);
      return toCustomer(updated);
    });
  }

  /**
   * The tax ids an update sets, checked before its transaction (the online check is a network
   * call): an id without a country takes the billing country, the one sent or the stored one.
   */
  private async updatedTaxIds(scope: CustomerScope, customerId: string, requested: CustomerUpdate['taxIds'], address: Record<string, unknown> | null | undefined) {
    if (requested === undefined) return undefined;
    if (requested === null || requested.length === 0) return [];
    const row = await repo.findCustomer(this.db, scope.environmentId, customerId);
    if (!row) throw customerNotFound(customerId);
    const country = address !== undefined ? countryOfAddress(address) : countryOfAddress(row.billing_address);
    return this.taxIds(requested, country, row.tax_ids ?? []);
  }

  /**
   * Archives the customer. One with a subscription that would bill again is refused,
   * unless `cancelSubscriptions` ends those subscriptions in the same transaction.
   */
  async archive(scope: CustomerScope, customerId: string, options: { cancelSubscriptions?: boolean } = {}): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      const row = await repo.findCustomer(tx, scope.environmentId, customerId, { forUpdate: true });
      if (!row) throw customerNotFound(customerId);
      if (row.archived_at) throw customerAlreadyArchived(customerId);
      const at = this.clock.now();
      if (options.cancelSubscriptions) {
        // The seller archives: a cancellation by the merchant, as the reference names its reasons.
        await this.subscriptions.endBilling(tx, scope, row.id, at, 'CANCELLED_BY_MERCHANT');
      } else {
        const live = await this.subscriptions.countBilling(tx, scope.environmentId, row.id);
        if (live > 0) throw customerHasSubscriptions(customerId, live);
      }
      await repo.archiveCustomer(tx, row.id, at);
      await this.announceUpdate(tx, scope, row, { ...row, archived_at: at, modified_at: at });
      // An archived customer is entitled to nothing.
      await this.changes?.announce(tx, scope.environmentId, customerId);
    });
    this.changes?.forget(scope.environmentId, customerId);
  }

  /**
   * Moves a customer of the sandbox who lived in real time onto a test clock (decision 0087):
   * only one without any subscription, never from another clock, never back in time, and
   * not while the clock advances. Recorded in the audit log in the same transaction.
   */
  async attachToTestClock(scope: CustomerScope & AuditableScope, testClockId: string, customerId: string): Promise<Customer> {
    if (scope.environment !== 'sandbox') throw testClocksSandboxOnly();
    return inTransaction(this.db, async (tx) => {
      const clock = await this.attachableClock(tx, scope, testClockId, testClockNotFound);
      if (clock.status === 'advancing') throw clockAdvancing(testClockId);
      const row = await repo.findCustomer(tx, scope.environmentId, customerId, { forUpdate: true });
      if (!row) throw customerNotFound(customerId);
      if (row.archived_at) throw customerArchived(customerId);
      if (row.test_clock_id === clock.id) return toCustomer(row);
      if (row.test_clock_id) throw customerOnTestClock(customerId, row.test_clock_id);
      if ((await repo.subscriptionCount(tx, row.id)) > 0) throw customerHasAnySubscription(customerId);
      if (clock.frozen_time.getTime() < row.created_at.getTime()) throw clockBeforeCustomer(customerId, row.created_at.toISOString());
      const at = this.clock.now();
      await repo.setTestClock(tx, row.id, clock.id, at);
      const change = { action: 'test_clock.customer_attached' as const, resourceType: 'test_clock', resourceId: clock.id, before: { testClockId: null }, after: { customerId, testClockId: clock.id } };
      await recordAudit(tx, scope, change, at);
      return toCustomer({ ...row, test_clock_id: clock.id, modified_at: at });
    });
  }

  private async announceUpdate(tx: Tx, scope: CustomerScope, before: repo.CustomerRow, after: repo.CustomerRow) {
    const subscriptions = await repo.liveSubscriptionCount(tx, after.id);
    const object = customerEventObject(after, subscriptions);
    const previous = previousAttributes(customerEventObject(before, subscriptions), object);
    if (Object.keys(previous).length === 0) return;
    await recordEvent(tx, {
      environmentId: scope.environmentId,
      organizationId: scope.organizationId,
      type: 'customer.updated',
      data: object,
      previousAttributes: previous,
      at: after.modified_at,
    });
  }
}

/** What the hosted checkout knows of its buyer. */
export interface CheckoutBuyer {
  customerId: string;
  email: string | null;
  name: string | null;
  country: string | null;
  /** The business tax id given at checkout (checked before the transaction); null: not a business purchase; undefined: not asked. */
  taxId?: StoredTaxId | null;
  /** The language the buyer's browser asked for at checkout: remembered when the customer has none. */
  locale?: string | null;
}

/** The customer's tax ids with the one given at checkout in front (in place of one of its type), or undefined when unchanged. */
function withBusinessId(stored: StoredTaxId[], given: StoredTaxId | null | undefined): StoredTaxId[] | undefined {
  if (given === undefined) return undefined;
  const next = given === null ? [] : [given, ...stored.filter((id) => id.type !== given.type)];
  return JSON.stringify(next) === JSON.stringify(stored) ? undefined : next;
}

/**
 * The buyer of a checkout, in the caller's transaction and locked for it: created
 * when new (`customer.created`), else given the email and name it lacks, and the billing
 * country the buyer chose, which is what the purchase is taxed by (`customer.updated`;
 * decision 0059). The caller passes only a customer its session may act for (decision 0054).
 */
export async function ensureCheckoutCustomer(tx: Tx, scope: CustomerScope, buyer: CheckoutBuyer, at: Date): Promise<repo.CustomerRow> {
  const existing = await repo.findCustomer(tx, scope.environmentId, buyer.customerId, { forUpdate: true });
  if (existing?.archived_at) throw customerArchived(buyer.customerId);
  if (!existing) {
    const row = await repo.insertCustomer(tx, {
      id: newId(),
      environmentId: scope.environmentId,
      customerId: buyer.customerId,
      name: buyer.name,
      email: buyer.email,
      metadata: {},
      billingAddress: buyer.country ? { country: buyer.country } : null,
      taxIds: buyer.taxId ? [buyer.taxId] : [],
      testClockId: null,
      locale: buyer.locale ?? null,
      at,
    });
    await recordEvent(tx, { environmentId: scope.environmentId, organizationId: scope.organizationId, type: 'customer.created', data: customerEventObject(row, 0), at });
    return row;
  }
  // A customer on a test clock has the clock's time (decision 0048), whatever the page's request was dated.
  at = (await repo.testClockTimeOf(tx, existing.id)) ?? at;
  const changes = {
    email: existing.email ? undefined : (buyer.email ?? undefined),
    name: existing.name ? undefined : (buyer.name ?? undefined),
    billingAddress: !buyer.country || countryOfAddress(existing.billing_address) === buyer.country ? undefined : addressInCountry(existing.billing_address, buyer.country),
    taxIds: withBusinessId(existing.tax_ids ?? [], buyer.taxId),
    locale: existing.locale || !buyer.locale ? undefined : buyer.locale,
  };
  if (Object.values(changes).every((change) => change === undefined)) return existing;
  const updated = await repo.updateCustomer(tx, existing.id, { ...changes, at });
  const subscriptions = await repo.liveSubscriptionCount(tx, updated.id);
  const object = customerEventObject(updated, subscriptions);
  await recordEvent(tx, {
    environmentId: scope.environmentId,
    organizationId: scope.organizationId,
    type: 'customer.updated',
    data: object,
    previousAttributes: previousAttributes(customerEventObject(existing, subscriptions), object),
    at,
  });
  return updated;
}
