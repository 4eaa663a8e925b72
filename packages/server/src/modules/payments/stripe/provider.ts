import type {
  AttachedMethod,
  AttachingPaymentProvider,
  AttachRequest,
  ChargeOutcome,
  ChargeRequest,
  ConfirmingPaymentProvider,
  ConfirmRequest,
  RefundOutcome,
  RefundRequest,
} from '../provider.js';
import type Stripe from 'stripe';
import { stripeErrors } from './client.js';
import { createHash } from 'node:crypto';
import { notAStripeMethod, providerIdempotencyError, providerKeyRejected, providerUnavailable } from '../errors.js';
import { outcomeOfIntent, refusalOfError } from './outcomes.js';

/**
 * A saved Stripe method is held as `<customer>/<payment method>` (cus_…/pm_…): off-session
 * charges need both, and the pair keeps Billow's payment_methods table as it is.
 */
export function stripeMethodRef(customer: string, paymentMethod: string): string {
  return `${customer}/${paymentMethod}`;
}

export function parseStripeMethodRef(ref: string): { customer: string; paymentMethod: string } | null {
  const match = /^(cus_[A-Za-z0-9_]+)\/(pm_[A-Za-z0-9_]+)$/.exec(ref);
  return match ? { customer: match[1]!, paymentMethod: match[2]! } : null;
}

function checkAmount(amountMinor: number, currency: string): void {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) {
    throw new RangeError(`A charge amount must be a non-negative integer in minor units, not ${amountMinor}`);
  }
  if (!/^[A-Z]{3}$/.test(currency)) throw new RangeError(`"${currency}" is not an ISO 4217 currency code`);
}

/**
 * Payments on a seller's own Stripe account, through Stripe's official library.
 * Every call that creates something carries an idempotency key derived from Billow's
 * intent (the caller's `idempotencyKey`): a retry after a crash, the recovery task
 * and a webhook's settlement all make the same call, and Stripe charges once.
 * A replayed call answers what the first one answered, so a charge that was not
 * final then is read again for its current state.
 */
export class StripeProvider implements ConfirmingPaymentProvider, AttachingPaymentProvider {
  readonly name = 'stripe';

  constructor(private readonly stripe: Stripe) {}

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    checkAmount(request.amountMinor, request.currency);
    const method = parseStripeMethodRef(request.methodRef);
    if (!method) return { status: 'failed', code: 'processing_error', message: `${request.methodRef} is not a Stripe payment method` };
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amountMinor,
          currency: request.currency.toLowerCase(),
          customer: method.customer,
          payment_method: method.paymentMethod,
          // Cards only need no redirect: 3-D Secure happens on Billow's page with Stripe.js.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          confirm: true,
          ...(request.offSession ? { off_session: true } : { setup_future_usage: 'off_session' as const }),
          description: request.description,
          metadata: { billow_key: request.idempotencyKey },
        },
        { idempotencyKey: request.idempotencyKey },
      );
    } catch (error) {
      if (isIdempotencyError(error)) return this.afterIdempotencyError(request.idempotencyKey, method.customer, error);
      const refusal = refusalOfError(error);
      if (refusal) return refusal;
      throw unavailable(error);
    }
    const outcome = outcomeOfIntent(intent);
    if (outcome.status !== 'requires_action' && outcome.status !== 'processing') return outcome;
    // Possibly a replay of the first answer: what is the charge now?
    try {
      return outcomeOfIntent(await this.stripe.paymentIntents.retrieve(intent.id));
    } catch (error) {
      throw unavailable(error);
    }
  }

  /**
   * Stripe refused the charge's key as sent before with other parameters (a fault of
   * Billow's, reported loudly). The PaymentIntent that the first request made, if any,
   * says how the payment ended; with none, nothing was charged under the key, and the
   * charge fails now rather than leave its intent waiting on an answer that never changes.
   */
  private async afterIdempotencyError(key: string, customer: string, error: Stripe.errors.StripeError): Promise<ChargeOutcome> {
    reportIdempotencyError(key, error);
    let made: Stripe.PaymentIntent | undefined;
    try {
      made = await this.paymentIntentOfKey(customer, key);
    } catch (lookup) {
      throw unavailable(lookup);
    }
    if (made) return outcomeOfIntent(made);
    return { status: 'failed', code: 'provider_idempotency_error', message: `Stripe refused the idempotency key ${key}: ${error.message}` };
  }

  /** The customer's PaymentIntent made under Billow's key (its metadata), among those of the key's lifetime. */
  private async paymentIntentOfKey(customer: string, key: string): Promise<Stripe.PaymentIntent | undefined> {
    const since = Math.floor(Date.now() / 1000) - KEY_LIFETIME_S;
    for await (const intent of this.stripe.paymentIntents.list({ customer, created: { gte: since }, limit: 100 })) {
      if (intent.metadata?.billow_key === key) return intent;
    }
    return undefined;
  }

  /**
   * The outcome of a charge that waited (3-D Secure done on the page with Stripe.js,
   * or a payment that was processing): Stripe knows whether the buyer authenticated,
   * so `authenticated` is not taken on trust.
   */
  async confirm(request: ConfirmRequest): Promise<ChargeOutcome> {
    try {
      return outcomeOfIntent(await this.stripe.paymentIntents.retrieve(request.chargeRef));
    } catch (error) {
      const refusal = refusalOfError(error);
      if (refusal) return refusal;
      throw unavailable(error);
    }
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    checkAmount(request.amountMinor, request.currency);
    if (request.amountMinor === 0) return { status: 'failed', message: 'A refund must be of a positive amount' };
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: request.chargeRef, amount: request.amountMinor, metadata: { billow_key: request.idempotencyKey } },
        { idempotencyKey: request.idempotencyKey },
      );
      if (refund.status === 'failed' || refund.status === 'canceled') {
        return { status: 'failed', message: `Stripe could not refund: ${refund.failure_reason ?? refund.status}` };
      }
      return { status: 'succeeded', providerRef: refund.id };
    } catch (error) {
      if (isIdempotencyError(error)) reportIdempotencyError(request.idempotencyKey, error);
      if (refusalOfError(error)) return { status: 'failed', message: (error as Error).message };
      throw unavailable(error);
    }
  }

  /** The client secret of a PaymentIntent, for Stripe.js on the buyer's page. */
  async clientSecretOf(paymentIntent: string): Promise<string | null> {
    try {
      return (await this.stripe.paymentIntents.retrieve(paymentIntent)).client_secret;
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** Attaches a PaymentMethod the customer entered in Stripe's element to the customer's Stripe customer. */
  async attach(request: AttachRequest): Promise<AttachedMethod> {
    try {
      const customer = request.providerCustomer ?? (await this.createCustomer(request));
      const method = await this.stripe.paymentMethods.attach(
        request.paymentMethod,
        { customer },
        { idempotencyKey: `billow_attach_${request.paymentMethod}_${customer}` },
      );
      if (!method.card) throw notAStripeMethod(`${method.id} is not a card`);
      const card = method.card;
      return {
        methodRef: stripeMethodRef(customer, method.id),
        card: { brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year, funding: card.funding, country: card.country ?? 'unknown' },
      };
    } catch (error) {
      if (isIdempotencyError(error)) reportIdempotencyError(`of ${request.paymentMethod}`, error);
      const errors = stripeErrors();
      if (errors && (error instanceof errors.StripeInvalidRequestError || error instanceof errors.StripeCardError)) {
        throw notAStripeMethod(error.message);
      }
      throw unavailable(error);
    }
  }

  /**
   * A Stripe customer for a Billow customer that has no Stripe method yet. The key covers
   * every parameter sent (Stripe refuses a key with other parameters): a retry of the same
   * request makes one customer, and a buyer who corrects the email after a refused card
   * gets a new one rather than a refusal of the key for a day.
   */
  private async createCustomer(request: AttachRequest): Promise<string> {
    const params = { ...(request.email ? { email: request.email } : {}), ...(request.name ? { name: request.name } : {}), metadata: { billow_customer: request.customerId } };
    const created = await this.stripe.customers.create(params, { idempotencyKey: `billow_customer_${request.customerId}_${digestOf(params)}` });
    return created.id;
  }
}

/** How far back a PaymentIntent made under a key is looked for: Stripe keeps keys 24 hours, so two days is ample. */
const KEY_LIFETIME_S = 2 * 24 * 3600;

function digestOf(params: object): string {
  return createHash('sha256').update(JSON.stringify(params)).digest('base64url').slice(0, 22);
}

/** Stripe's refusal of a key sent again with other parameters (a 409 for a request still under way is not one). */
function isIdempotencyError(error: unknown): error is Stripe.errors.StripeError {
  const errors = stripeErrors();
  return !!errors && error instanceof errors.StripeIdempotencyError && error.statusCode !== 409;
}

/** Nobody waits on an idempotency error, so it is written where an operator sees it: it is a bug of Billow's. */
function reportIdempotencyError(key: string, error: Stripe.errors.StripeError): void {
  process.emitWarning(`Stripe refused the idempotency key ${key} as sent before with other parameters (${error.message}). This is a bug in Billow: please report it.`, {
    code: 'BILLOW_STRIPE_IDEMPOTENCY_ERROR',
  });
}

/** Errors of ours pass; Stripe's trouble is a 503 that changes nothing: a refused key says so, the rest (network, outage, rate limit) is unavailability. */
function unavailable(error: unknown): unknown {
  const errors = stripeErrors();
  if (!errors) return error;
  if (error instanceof errors.StripeAuthenticationError || error instanceof errors.StripePermissionError) return providerKeyRejected();
  if (isIdempotencyError(error)) return providerIdempotencyError();
  return error instanceof errors.StripeError ? providerUnavailable() : error;
}
