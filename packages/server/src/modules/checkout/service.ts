import type { CheckoutSessionCreate, CheckoutSessionCreated, CheckoutSessionListQuery } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { CheckoutStatus } from '../../db/schema.js';
import { inTransaction, type Executor, type Tx } from '../../db/transaction.js';
import type { CustomerRow, ResolvedPurchase } from '../purchases/purchase.js';
import { DomainError } from '../../lib/domain-error.js';
import type { AnswerKeeper } from '../../db/answer-keeper.js';
import type { PageRequest } from '../../lib/pagination.js';
import type { Clock } from '../../lib/clock.js';
import { normalizeCountry } from '../../lib/countries.js';
import { randomBase62 } from '../../lib/crypto.js';
import { countryOfIp } from '../../lib/geoip.js';
import { metadataProblem } from '../../lib/metadata.js';
import { AmountError, currencyDigits, isCurrency, toMinor } from '../../lib/money.js';
import { DAY_MS } from '../../lib/time.js';
import { findCustomer } from '../customers/queries.js';
import { findPlan, productViews, type ImageUrls } from '../catalog/queries.js';
import { currencySymbol as currencySymbolOf, dateRange, decimalText, searchTerm } from '../ledger/format.js';
import { enqueueJob } from '../jobs/service.js';
import { assertProviderConfigured } from '../payments/providers.js';
import { resolveCheckoutDiscount } from './discount.js';
import { localCurrency, resolveInLocalCurrency } from './local-currency.js';
import * as errors from './errors.js';
import * as repo from './repo.js';
import { checkoutUrl, presentDetail, presentEvent, presentSession } from './view.js';

export const EXPIRE_CHECKOUT_JOB = 'expire-checkout-session';
/** How long a session stays open (DOMAIN.md §3.7: 24 h). */
export const SESSION_TTL_MS = DAY_MS;

export interface CheckoutScope {
  organizationId: string;
  environmentId: string;
  environment: 'sandbox' | 'production';
  kind: 'server' | 'client';
  baseUrl: string;
  apiBase: string;
  /** The address the creating request came from: a client key's buyer, for the local currency. */
  callerIp?: string;
}

/** `cs_` and 48 random base62 characters (≈ 285 bits): the id is the hosted page's only credential. */
export const newSessionId = (): string => `cs_${randomBase62(48)}`;

/** Customer ids the official client could never address, refused as customers' own route refuses them. */
const unaddressable = (id: string) => id === '.' || id === '..' || /[/?#%]/.test(id);

function absoluteUrl(value: string | null | undefined, field: string): string | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw errors.badUrl(field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw errors.badUrl(field);
  return url.toString();
}

function country(value: string | null | undefined, field: string): string | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  const code = normalizeCountry(value.trim());
  if (!code) throw errors.badCountry(field, value);
  return code;
}

function planList(value: CheckoutSessionCreate['plansEnabled'], planIdentifier: string): string[] | null {
  if (value === undefined || value === null) return null;
  const given = (Array.isArray(value) ? value : value.split(',')).map((p) => p.trim()).filter((p) => p !== '');
  if (given.length === 0) return null;
  return [...new Set([planIdentifier, ...given])];
}

interface CustomAmount {
  amountMinor: number;
  taxBehavior: 'INCLUSIVE' | 'EXCLUSIVE';
}

/** customAmount (major units, as number or decimal text) in the minor units of the currency, with its rules (DOMAIN §1.2, §2.2). */
function customAmountOf(input: CheckoutSessionCreate, kind: 'server' | 'client'): CustomAmount | null {
  if (input.customAmount === undefined || input.customAmount === null) {
    if (input.taxBehavior) throw errors.taxBehaviorWithoutAmount();
    return null;
  }
  if (kind === 'client') throw errors.customAmountWithClientKey();
  if (!input.taxBehavior) throw errors.customAmountNeedsTaxBehavior();
  if (!input.currencyCode) throw errors.customAmountNeedsCurrency();
  if (input.features && input.features.length > 0) throw errors.customAmountWithFeatures();
  const currency = input.currencyCode.trim().toUpperCase();
  const amount = typeof input.customAmount === 'string' ? Number(input.customAmount.trim()) : input.customAmount;
  if (!Number.isFinite(amount) || amount <= 0) throw errors.badCustomAmount('give a positive amount in major units, e.g. 49.90');
  try {
    return { amountMinor: toMinor(amount, isCurrency(currency) ? currencyDigits(currency) : 2), taxBehavior: input.taxBehavior };
  } catch (error) {
    if (error instanceof AmountError) throw errors.badCustomAmount(error.message);
    throw error;
  }
}

/**
 * The customer a purchase is priced for before it exists: its row when the
 * session names a known customer, else one with no currency and the billing
 * country given. resolvePurchase reads only the currency and the address.
 */
export function prospectiveCustomer(found: CustomerRow | undefined, billingCountry: string | null): CustomerRow {
  if (found) return found;
  return { currency: null, billing_address: billingCountry ? { country: billingCountry } : null } as unknown as CustomerRow;
}

export class CheckoutService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** Links to product images, for the product each session shows; not needed to expire sessions. */
    private readonly imageUrls: ImageUrls | null = null,
  ) {}

  private async productsOf(scope: CheckoutScope, rows: repo.SessionListRow[]) {
    if (!this.imageUrls) throw new Error('CheckoutService needs imageUrls to present sessions');
    const links = { urls: this.imageUrls, baseUrl: scope.baseUrl, apiBase: scope.apiBase };
    const products = await productViews(this.db, scope.environmentId, rows.map((r) => r.product_id), links);
    return (row: repo.SessionListRow) => {
      const product = products.get(row.product_id);
      if (!product) throw new Error(`checkout session ${row.id}: product ${row.product_id} not found`);
      return product;
    };
  }

  /** Validates every field against the catalog, then records the session, its first event and its expiry job. */
  /** `keep`: the request's Idempotency-Key keeps the answer with the session (decision 0051). */
  async create(scope: CheckoutScope, input: CheckoutSessionCreate, via: 'api' | 'buy_link' = 'api', keep?: AnswerKeeper): Promise<CheckoutSessionCreated> {
    const id = newSessionId();
    const created = { checkoutUrl: checkoutUrl(scope.baseUrl, scope.environment, id), checkoutSessionId: id };
    // A buy link without success_url ends on the session's own page, which then says the checkout is complete.
    const successUrl =
      via === 'buy_link' && input.successUrl.trim() === ''
        ? checkoutUrl(scope.baseUrl, scope.environment, id)
        : (absoluteUrl(input.successUrl, 'successUrl') ?? absoluteUrl('-', 'successUrl')!);
    const cancelUrl = absoluteUrl(input.cancelUrl, 'cancelUrl');
    const defaultCountry = country(input.defaultBillingCountry, 'defaultBillingCountry');
    const custom = customAmountOf(input, scope.kind);
    const metadata = input.metadata ?? {};
    const problem = metadataProblem(metadata);
    if (problem) throw errors.badMetadata(problem);
    const customerRef = input.customerId?.trim() || null;
    if (customerRef && unaddressable(customerRef)) throw errors.badCustomerId(customerRef);
    const discountsEnabled = input.discountsEnabled ?? true;
    const discountCode = input.discountCode?.trim() || null;
    if (discountCode && !discountsEnabled) throw errors.discountsDisabled();
    const now = this.clock.now();

    await inTransaction(this.db, async (tx) => {
      // Only a server key may act for an existing customer (decision 0054): a client key's or a buy
      // link's session neither reads nor reveals the customer it names (completion makes a new one).
      const trusted = scope.kind === 'server';
      const found = customerRef && trusted ? await findCustomer(tx, scope.environmentId, customerRef) : undefined;
      if (found?.archived_at) throw errors.archivedCustomer(customerRef!);
      const buyer = prospectiveCustomer(found, defaultCountry ?? countryOfIp(input.ipAddress));
      const wanted = {
        planIdentifier: input.planIdentifier,
        chargePeriod: input.chargePeriod,
        features: input.features ?? null,
        currencyCode: input.currencyCode ?? null,
        ipAddress: input.ipAddress ?? null,
        priceOverride: custom,
      };
      const purchase = await resolveInLocalCurrency(tx, scope, buyer, wanted, localCurrency(scope, via, buyer, wanted));
      // As every other purchase route: a page that would take money is not made where none can be taken.
      if (purchase.quote.totalMinor > 0) await assertProviderConfigured(tx, scope);
      const plans = planList(input.plansEnabled, input.planIdentifier);
      if (plans) await this.checkPlans(tx, scope, purchase, plans);
      if (discountCode) {
        await resolveCheckoutDiscount(tx, scope, discountCode, purchase, this.clock.now()).catch((error: unknown) => {
          throw error instanceof DomainError ? errors.discountRefused(error) : error;
        });
      }
      await repo.insertSession(tx, {
        id,
        environment_id: scope.environmentId,
        organization_id: scope.organizationId,
        environment: scope.environment,
        status: 'open',
        product_id: purchase.product.id,
        plan_identifier: purchase.plan.identifier,
        charge_period: input.chargePeriod,
        plans_enabled: plans,
        customer_ref: customerRef,
        customer_id: found?.id ?? null,
        features: JSON.stringify(input.features ?? []),
        ip_address: input.ipAddress ?? null,
        // A client key's ipAddress is the browser's claim: promotions locate that buyer by the page's request.
        ip_trusted: scope.kind === 'server' || via === 'buy_link',
        customer_trusted: trusted,
        currency_code: purchase.quote.currency,
        custom_amount_minor: custom?.amountMinor ?? null,
        tax_behavior: custom?.taxBehavior ?? null,
        discounts_enabled: discountsEnabled,
        discount_code: discountCode,
        // Locking locks the existing customer's email, which only a server key's session shows.
        lock_email: trusted && (input.lockEmail ?? false),
        default_billing_country: defaultCountry,
        success_url: successUrl,
        cancel_url: cancelUrl,
        metadata: JSON.stringify(metadata),
        offering_id: input.offeringId === undefined || input.offeringId === null ? null : String(input.offeringId),
        pricing_table_id: input.pricingTableId === undefined || input.pricingTableId === null ? null : String(input.pricingTableId),
        rule_id: input.ruleId === undefined || input.ruleId === null ? null : String(input.ruleId),
        email: found?.email ?? null,
        name: found?.name ?? null,
        api_base: scope.apiBase,
        created_via: via,
        expires_at: new Date(now.getTime() + SESSION_TTL_MS),
        created_at: now,
        modified_at: now,
      });
      await timeline(tx, id, 'checkout_session.created', 'Checkout session created', 'success', now, {
        amount: decimalText(purchase.quote.totalMinor, purchase.quote.currency),
        currency: purchase.quote.currency,
      });
      await enqueueJob(tx, { name: EXPIRE_CHECKOUT_JOB, payload: { sessionId: id }, runAt: new Date(now.getTime() + SESSION_TTL_MS), key: id });
      await keep?.keep(tx, created);
    });
    return created;
  }

  /** plansEnabled: plans of the same product, each published and live. */
  private async checkPlans(tx: Tx, scope: CheckoutScope, purchase: ResolvedPurchase, plans: string[]): Promise<void> {
    for (const identifier of plans) {
      const plan = await findPlan(tx, scope.environmentId, identifier);
      if (!plan || plan.archived_at || plan.published_version === null || plan.product_id !== purchase.product.id) {
        throw errors.planOfOtherProduct(identifier);
      }
    }
  }

  async list(scope: CheckoutScope, query: CheckoutSessionListQuery, page: PageRequest) {
    const filter: repo.SessionFilter = {
      environmentId: scope.environmentId,
      ...(searchTerm(query.search) ? { search: searchTerm(query.search) } : {}),
      ...(query.status ? { status: query.status as CheckoutStatus } : {}),
      created: dateRange(query.start_date, query.end_date),
    };
    const count = await repo.countSessions(this.db, filter);
    const rows = page.offset >= count ? [] : await repo.listSessions(this.db, filter, page.pageSize, page.offset);
    const productOf = await this.productsOf(scope, rows);
    return { count, results: rows.map((row) => presentSession(row, productOf(row), scope.baseUrl, scope.environment)) };
  }

  private async found(scope: CheckoutScope, id: string): Promise<repo.SessionListRow> {
    const row = await repo.findListedSession(this.db, scope.environmentId, id);
    if (!row) throw errors.sessionNotFound(id);
    return row;
  }

  async get(scope: CheckoutScope, id: string) {
    const row = await this.found(scope, id);
    const productOf = await this.productsOf(scope, [row]);
    return presentDetail(row, productOf(row), scope.baseUrl, scope.environment, await detailExtras(this.db, row));
  }

  async events(scope: CheckoutScope, id: string, page: PageRequest) {
    await this.found(scope, id);
    const count = await repo.countSessionEvents(this.db, id);
    const rows = page.offset >= count ? [] : await repo.listSessionEvents(this.db, id, page.pageSize, page.offset);
    return { count, results: rows.map(presentEvent) };
  }

  /** The expiry job: an open session whose 24 hours are up becomes expired. */
  async expire(sessionId: string): Promise<boolean> {
    return inTransaction(this.db, async (tx) => {
      const now = this.clock.now();
      const expired = await repo.expireSession(tx, sessionId, now);
      if (expired) await timeline(tx, sessionId, 'checkout_session.expired', 'Checkout session expired', 'failed', now);
      return expired !== undefined;
    });
  }
}

/** Writes one entry of a session's timeline, in the caller's transaction. */
export function timeline(
  tx: Executor,
  sessionId: string,
  code: string,
  title: string,
  status: 'pending' | 'success' | 'failed',
  at: Date,
  metadata: Record<string, unknown> = {},
): Promise<void> {
  return repo.insertSessionEvent(tx, { session_id: sessionId, code, title, status, metadata: JSON.stringify(metadata), created_at: at });
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** The order, subscription and payment method of a completed session (DOMAIN §2.2 detail). */
async function detailExtras(db: Db, row: repo.SessionRow) {
  const order = row.order_id ? await repo.findOrderSummary(db, row.order_id) : undefined;
  const subscription = row.subscription_id ? await repo.findSubscriptionSummary(db, row.subscription_id) : undefined;
  const method = row.payment_method_id !== null && row.status === 'success' ? await repo.findMethodSummary(db, row.payment_method_id) : undefined;
  return {
    order: order
      ? {
          id: order.id,
          status: order.status,
          paidAt: iso(order.paid_at),
          createdOn: order.created_at.toISOString(),
          billingType: order.billing_type,
          isTrial: order.is_trial,
          amountSubtotal: decimalText(order.subtotal_minor, order.currency),
          amountDiscount: decimalText(order.discount_minor, order.currency),
          amountTax: decimalText(order.tax_minor, order.currency),
          amountTotal: decimalText(order.total_minor, order.currency),
          saleCurrency: order.currency,
          saleCurrencySymbol: currencySymbolOf(order.currency),
          invoiceId: row.invoice_id,
        }
      : null,
    subscription: subscription
      ? {
          id: subscription.id,
          status: subscription.status,
          startDate: subscription.start_date.toISOString().slice(0, 10),
          endDate: subscription.end_date ? subscription.end_date.toISOString().slice(0, 10) : null,
          billingPeriodStartTime: iso(subscription.current_period_start),
          billingPeriodEndTime: iso(subscription.current_period_end),
          amount: decimalText(subscription.amount_minor, subscription.currency),
          currency: subscription.currency,
          billingType: subscription.charge_period === 'ONE_TIME' ? 'ONE_TIME' : 'SUBSCRIPTION',
          recurrence: subscription.charge_period,
        }
      : null,
    paymentMethod: method ? { paymentMethodType: method.method_type, paymentMethodName: method.brand ?? method.method_type, last4: method.last4 } : null,
  };
}
