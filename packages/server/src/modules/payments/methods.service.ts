import type { BillingAddress, PaymentMethod, PaymentMethodCreate } from '@billow/contract';
import type { EnvironmentKind } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Executor } from '../../db/transaction.js';
import type { PageRequest } from '../../lib/pagination.js';
import type { Clock } from '../../lib/clock.js';
import { findCustomer, testClockTimeOf } from '../customers/queries.js';
import { bringCollectionForward } from '../ledger/queries.js';
import { recordEvent } from '../events/writer.js';
import { cardBrand, cardDetails, luhnValid, normalizeCardNumber, sandboxCardRef } from './cards.js';
import {
  archivedCustomer,
  cardExpired,
  invalidCardField,
  invalidCardNumber,
  methodNotUsable,
  notAStripeMethod,
  paymentMethodNotFound,
  paymentProviderRequired,
  sandboxOnly,
  unknownCustomer,
} from './errors.js';
import { keptAnswer, type AnswerKeeper } from '../../db/answer-keeper.js';
import * as repo from './repo.js';
import type { AttachedMethod, AttachingPaymentProvider, CardDetails } from './provider.js';
import { paymentProviderOf } from './providers.js';
import { findProviderConfig, stripeCustomerOf } from './stripe/repo.js';
import { SANDBOX_CARDS } from './sandbox-provider.js';

export type { PaymentMethodOwner, PaymentMethodRow } from './repo.js';

export interface PaymentScope {
  environmentId: string;
  organizationId: string;
  environment: EnvironmentKind;
}

/**
 * The method a charge of the customer (`customers.id`) should use: its default
 * succeeded, non-deleted method, else its newest such method. Call it inside the
 * transaction that holds the customer's row lock.
 */
export async function usableMethodFor(
  tx: Executor,
  environmentId: string,
  customerId: string,
): Promise<repo.PaymentMethodRow | undefined> {
  return repo.findUsableMethod(tx, environmentId, customerId);
}

/** A saved method of the customer's, or else the one an active subscription of theirs pays with. */
export async function chargeableMethodFor(tx: Executor, environmentId: string, customerPk: string): Promise<repo.PaymentMethodRow | undefined> {
  return (await repo.findUsableMethod(tx, environmentId, customerPk)) ?? repo.subscriptionMethodOf(tx, customerPk);
}

/** A payment method as the API shows it (DOMAIN §2.11). */
export function presentPaymentMethod(row: repo.PaymentMethodRow, customer: repo.PaymentMethodOwner): PaymentMethod {
  return {
    id: row.id,
    customer: {
      customerId: customer.customer_id,
      name: customer.name,
      email: customer.email,
      billingAddress: (customer.billing_address as BillingAddress | null) ?? null,
    },
    methodType: row.method_type,
    methodData: methodData(row),
    isDefault: row.is_default,
    status: row.status,
    createdOn: row.created_at.toISOString(),
    modifiedOn: row.modified_at.toISOString(),
  };
}

/** The card details a payment method shows, in the API and in its events alike. */
function methodData(row: repo.PaymentMethodRow) {
  return {
    brand: row.brand,
    last4: row.last4,
    expMonth: row.exp_month,
    expYear: row.exp_year,
    funding: row.funding,
    country: row.country,
  };
}

const ADDRESS_FIELDS = ['line1', 'line2', 'city', 'state', 'postalCode', 'country'] as const;

/** The `payment_method` object of webhook events, as in webhook-events.json (camelCase here; written snake_case). */
export function paymentMethodEventObject(
  row: repo.PaymentMethodRow,
  customer: repo.PaymentMethodOwner,
): Record<string, unknown> {
  const stored = customer.billing_address as Record<string, unknown> | null;
  const billingAddress = stored ? Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, stored[f] ?? null])) : {};
  return {
    id: row.id,
    object: 'payment_method',
    customerId: customer.customer_id,
    customer: {
      id: customer.id,
      name: customer.name,
      email: customer.email,
      customerId: customer.customer_id,
      billingAddress,
    },
    methodType: row.method_type,
    methodData: methodData(row),
    isDefault: row.is_default,
    status: row.status,
  };
}

/** Writes `payment_method.created`, `.updated` or `.deleted` in the caller's transaction. */
export function recordPaymentMethodEvent(
  tx: Executor,
  type: 'payment_method.created' | 'payment_method.updated' | 'payment_method.deleted',
  event: {
    scope: Pick<PaymentScope, 'environmentId' | 'organizationId'>;
    row: repo.PaymentMethodRow;
    customer: repo.PaymentMethodOwner;
    previousAttributes?: Record<string, unknown>;
    at: Date;
  },
): Promise<string> {
  return recordEvent(tx, {
    environmentId: event.scope.environmentId,
    organizationId: event.scope.organizationId,
    type,
    data: paymentMethodEventObject(event.row, event.customer),
    ...(event.previousAttributes ? { previousAttributes: event.previousAttributes } : {}),
    at: event.at,
  });
}

/** Ids are bigint identities; anything else cannot name a method. */
function parseMethodId(id: string): number | null {
  return /^[1-9][0-9]{0,14}$/.test(id) ? Number(id) : null;
}

export interface CheckedCard {
  digits: string;
  expMonth: number;
  expYear: number;
}

/** The checks a card issuer would make before saving a card, against the clock. */
export function checkCard(input: Pick<PaymentMethodCreate, 'cardNumber' | 'expMonth' | 'expYear' | 'cvc'>, now: Date): CheckedCard {
  const digits = normalizeCardNumber(input.cardNumber);
  if (!/^[0-9]+$/.test(digits)) throw invalidCardNumber('only digits, spaces and dashes are allowed');
  if (digits.length < 12 || digits.length > 19) {
    throw invalidCardNumber(`a card number has 12 to 19 digits; this one has ${digits.length}`);
  }
  if (!luhnValid(digits)) {
    throw invalidCardNumber('the number fails the Luhn check (a mistyped digit?); try the test card 4242 4242 4242 4242');
  }
  const expYear = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
  if (expYear < 1000) throw invalidCardField('expYear', 'give four digits (2029) or two (29)');
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  if (expYear < year || (expYear === year && input.expMonth < month)) throw cardExpired(input.expMonth, expYear);
  if (expYear > year + 50) throw invalidCardField('expYear', `${expYear} is too far in the future`);
  const cvcLength = cardBrand(digits) === 'amex' ? 4 : 3;
  if (input.cvc.length !== cvcLength) {
    throw invalidCardField('cvc', `this card's security code has ${cvcLength} digits`);
  }
  return { digits, expMonth: input.expMonth, expYear };
}

/** A new default method: the customer's invoices in dunning are tried again with it, at the customer's time. */
async function retryUnpaidInvoices(tx: Executor, customerPk: string, at: Date): Promise<void> {
  await bringCollectionForward(tx, customerPk, at);
}

export class PaymentMethodService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Now, for the customer: their test clock's time if they live by one (their records and events are dated by it). */
  private async timeOf(tx: Executor, customerPk: string): Promise<Date> {
    return (await testClockTimeOf(tx, customerPk)) ?? this.clock.now();
  }

  async list(
    scope: PaymentScope,
    filter: { customerId?: string; customerEmail?: string },
    page: PageRequest,
  ): Promise<{ count: number; results: PaymentMethod[] }> {
    const where: repo.ListFilter = {
      environmentId: scope.environmentId,
      ...(filter.customerId !== undefined ? { customerId: filter.customerId } : {}),
      ...(filter.customerEmail !== undefined ? { customerEmail: filter.customerEmail.trim() } : {}),
    };
    const count = await repo.countPaymentMethods(this.db, where);
    const rows = page.offset >= count ? [] : await repo.listPaymentMethods(this.db, where, page.pageSize, page.offset);
    return { count, results: rows.map(({ method, owner }) => presentPaymentMethod(method, owner)) };
  }

  /**
   * Billow's sandbox-only way to save a test card for a customer. A card typed on a hosted
   * page (`typedOnPage`, the portal) is kept as checkout keeps one: never its number.
   */
  async attach(scope: PaymentScope, input: PaymentMethodCreate, options: { typedOnPage?: boolean; keep?: AnswerKeeper } = {}): Promise<PaymentMethod> {
    if (scope.environment !== 'sandbox') throw sandboxOnly(Boolean(await findProviderConfig(this.db, scope.environmentId)));
    // A customer on a test clock lives at its time: their card's expiry is checked against it (decision 0071).
    const customer = await findCustomer(this.db, scope.environmentId, input.customerId);
    const clockTime = customer ? await testClockTimeOf(this.db, customer.id) : null;
    const card = checkCard(input, clockTime ?? this.clock.now());
    const details = cardDetails(card.digits, { expMonth: card.expMonth, expYear: card.expYear });
    return this.save(scope, input.customerId, details, options.typedOnPage ? checkoutCardRef(card.digits) : sandboxCardRef(card.digits), options.keep);
  }

  /**
   * Saves a card the customer entered in Stripe's own element (a PaymentMethod `pm_…` of
   * the seller's Stripe account): attached to the customer's Stripe customer first,
   * outside any transaction, then recorded. Billow never sees the card's number.
   */
  async attachStripe(scope: PaymentScope, input: { customerId: string; stripePaymentMethod: string }, keep?: AnswerKeeper): Promise<PaymentMethod> {
    if (!/^pm_[A-Za-z0-9_]{1,200}$/.test(input.stripePaymentMethod)) throw notAStripeMethod('give the id of a Stripe PaymentMethod (pm_…)');
    const customer = await findCustomer(this.db, scope.environmentId, input.customerId);
    if (!customer) throw unknownCustomer(input.customerId);
    if (customer.archived_at) throw archivedCustomer(input.customerId);
    const provider = await paymentProviderOf(this.db, scope);
    if (!provider || !('attach' in provider)) throw paymentProviderRequired();
    const attached = await (provider as AttachingPaymentProvider).attach({
      paymentMethod: input.stripePaymentMethod,
      customerId: customer.id,
      providerCustomer: await stripeCustomerOf(this.db, scope.environmentId, customer.id),
      email: customer.email,
      name: customer.name,
    });
    return this.save(scope, input.customerId, attached.card, attached.methodRef, keep);
  }

  /** Records a card the provider holds for the customer; the customer's first method becomes its default. */
  private save(scope: PaymentScope, customerId: string, details: CardDetails, providerRef: string, keep?: AnswerKeeper): Promise<PaymentMethod> {
    return inTransaction(this.db, async (tx) => {
      const customer = await findCustomer(tx, scope.environmentId, customerId, { forUpdate: true });
      if (!customer) throw unknownCustomer(customerId);
      if (customer.archived_at) throw archivedCustomer(customerId);
      const at = await this.timeOf(tx, customer.id);
      const hasDefault = (await repo.findDefaultMethod(tx, scope.environmentId, customer.id)) !== undefined;
      const row = await repo.insertPaymentMethod(tx, {
        environmentId: scope.environmentId,
        customerId: customer.id,
        methodType: 'card',
        ...details,
        providerRef,
        status: 'succeeded',
        isDefault: !hasDefault,
        at,
      });
      await recordPaymentMethodEvent(tx, 'payment_method.created', { scope, row, customer, at });
      if (row.is_default) await retryUnpaidInvoices(tx, customer.id, at);
      return keptAnswer(keep, tx, presentPaymentMethod(row, customer));
    });
  }

  /** Makes the method its customer's default; the previous default loses the flag in the same transaction. */
  async makeDefault(scope: PaymentScope, id: string): Promise<PaymentMethod> {
    const methodId = parseMethodId(id);
    if (methodId === null) throw paymentMethodNotFound(id);
    return inTransaction(this.db, async (tx) => {
      const found = await repo.findPaymentMethod(tx, scope.environmentId, methodId);
      if (!found) throw paymentMethodNotFound(id);
      const customer = await repo.lockCustomerById(tx, scope.environmentId, found.customer_id);
      // Read again under the customer's lock: another request may have changed it meanwhile.
      const method = customer && (await repo.findPaymentMethod(tx, scope.environmentId, methodId, { forUpdate: true }));
      if (!customer || !method) throw paymentMethodNotFound(id);
      if (customer.archived_at) throw archivedCustomer(customer.customer_id);
      if (method.status !== 'succeeded') throw methodNotUsable(method.id);
      if (method.is_default) return presentPaymentMethod(method, customer);
      const at = await this.timeOf(tx, customer.id);
      const previous = await repo.findDefaultMethod(tx, scope.environmentId, customer.id);
      if (previous) {
        const demoted = await repo.setDefaultFlag(tx, previous.id, false, at);
        await recordPaymentMethodEvent(tx, 'payment_method.updated', {
          scope,
          row: demoted,
          customer,
          previousAttributes: { isDefault: true },
          at,
        });
      }
      const promoted = await repo.setDefaultFlag(tx, method.id, true, at);
      await retryUnpaidInvoices(tx, customer.id, at);
      await recordPaymentMethodEvent(tx, 'payment_method.updated', {
        scope,
        row: promoted,
        customer,
        previousAttributes: { isDefault: false },
        at,
      });
      return presentPaymentMethod(promoted, customer);
    });
  }

  /**
   * Removes a saved method (ours; the reference's customers do it in its portal): it is no
   * longer listed nor charged. When it was the default, the newest remaining usable method
   * becomes the default, so that a customer with methods keeps exactly one. Events:
   * payment_method.deleted, then payment_method.updated for the new default.
   */
  async remove(scope: PaymentScope, id: string): Promise<void> {
    const methodId = parseMethodId(id);
    if (methodId === null) throw paymentMethodNotFound(id);
    await inTransaction(this.db, async (tx) => {
      const found = await repo.findPaymentMethod(tx, scope.environmentId, methodId);
      if (!found) throw paymentMethodNotFound(id);
      const customer = await repo.lockCustomerById(tx, scope.environmentId, found.customer_id);
      // Read again under the customer's lock: another request may have deleted it meanwhile.
      const method = customer && (await repo.findPaymentMethod(tx, scope.environmentId, methodId, { forUpdate: true }));
      if (!customer || !method) throw paymentMethodNotFound(id);
      const at = await this.timeOf(tx, customer.id);
      const deleted = await repo.deletePaymentMethod(tx, method.id, at);
      await recordPaymentMethodEvent(tx, 'payment_method.deleted', { scope, row: deleted, customer, at });
      const next = method.is_default ? await repo.findUsableMethod(tx, scope.environmentId, customer.id) : undefined;
      if (!next) return;
      const promoted = await repo.setDefaultFlag(tx, next.id, true, at);
      await recordPaymentMethodEvent(tx, 'payment_method.updated', { scope, row: promoted, customer, previousAttributes: { isDefault: false }, at });
    });
  }
}

/**
 * What the sandbox keeps of a card typed on the hosted checkout: a published test
 * card keeps its handle (it says how the sandbox answers); any other number is
 * never stored, and behaves as the success card.
 */
function checkoutCardRef(digits: string): string {
  const known = (Object.values(SANDBOX_CARDS) as string[]).includes(digits);
  return sandboxCardRef(known ? digits : SANDBOX_CARDS.success);
}

/**
 * Saves a card the buyer gave on the hosted checkout, in the caller's transaction
 * (which holds the customer's lock), as the customer's default method: the card
 * they just chose is the one to charge. Either a test card they typed (sandbox only;
 * brand, last four digits, expiry and the test card's handle are kept) or a card
 * Stripe's element collected and Stripe holds (its `cus_…/pm_…` handle and details).
 */
export async function saveCheckoutCard(
  tx: Executor,
  scope: PaymentScope,
  customer: repo.PaymentMethodOwner,
  card: CheckedCard | AttachedMethod,
  requestedAt: Date,
): Promise<repo.PaymentMethodRow> {
  const at = (await testClockTimeOf(tx, customer.id)) ?? requestedAt;
  const typed = 'digits' in card;
  if (typed && scope.environment !== 'sandbox') throw sandboxOnly(Boolean(await findProviderConfig(tx, scope.environmentId)));
  const previous = await repo.findDefaultMethod(tx, scope.environmentId, customer.id);
  if (previous) {
    const demoted = await repo.setDefaultFlag(tx, previous.id, false, at);
    await recordPaymentMethodEvent(tx, 'payment_method.updated', { scope, row: demoted, customer, previousAttributes: { isDefault: true }, at });
  }
  const row = await repo.insertPaymentMethod(tx, {
    environmentId: scope.environmentId,
    customerId: customer.id,
    methodType: 'card',
    ...(typed ? cardDetails(card.digits, { expMonth: card.expMonth, expYear: card.expYear }) : card.card),
    providerRef: typed ? checkoutCardRef(card.digits) : card.methodRef,
    status: 'succeeded',
    isDefault: true,
    at,
  });
  await recordPaymentMethodEvent(tx, 'payment_method.created', { scope, row, customer, at });
  return row;
}

/** A payment method of the environment by id, whatever its status (a checkout session's). */
export function paymentMethodById(tx: Executor, environmentId: string, id: number): Promise<repo.PaymentMethodRow | undefined> {
  return repo.findPaymentMethod(tx, environmentId, id);
}

/** A method of the environment that can still be charged (succeeded, not deleted), by id. */
export async function chargeableMethodById(tx: Executor, environmentId: string, id: number | null): Promise<repo.PaymentMethodRow | undefined> {
  if (id === null) return undefined;
  const method = await repo.findPaymentMethod(tx, environmentId, id);
  return method?.status === 'succeeded' ? method : undefined;
}
