/**
 * Money moves in two phases, never waiting on the network inside a transaction
 * (decision 0026):
 *
 *   (a) the purchase flow runs in a transaction that locks, validates and computes;
 *       at the point where money must move it stops, and a payment intent is recorded
 *       (status processing, a provider key derived from the intent);
 *   (b) the provider is called outside any transaction, with that key;
 *   (c) the flow runs again in a second transaction, which re-validates and records
 *       the order, invoice, transaction and events with the provider's answer, and
 *       settles the intent, in the same transaction, with the request's answer.
 *
 * A process that dies between (a) and (c) leaves a processing intent: a retry with the
 * same Idempotency-Key, or the recovery task, completes it by asking the provider again
 * under the same key, so a card is charged once and never without its order.
 */
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/crypto.js';
import { failpoint } from '../lib/failpoints.js';
import type { Db } from '../db/connect.js';
import { leaseHolderOf } from '../db/lease-holder.js';
import { inTransaction, isUniqueViolation, type Tx } from '../db/transaction.js';
import { DomainError } from '../lib/domain-error.js';
import { paymentInProgress, purchaseChangedWhilePaying } from '../modules/intents/errors.js';
import { recordedPaymentFailure } from '../modules/purchases/errors.js';
import * as idempotencyKeys from '../modules/idempotency/queries.js';
import * as intents from '../modules/intents/queries.js';
import type { IdempotencyClaim, StoredRequest } from '../modules/intents/claims.js';
import type { ChargeOutcome, ChargeRequest, ConfirmingPaymentProvider } from '../modules/payments/provider.js';
import { requireProvider } from '../modules/payments/providers.js';
import { refusalOf, type PaymentRequest, type PaymentStep } from '../modules/purchases/payment.js';

export type { IdempotencyClaim, StoredRequest };

export interface TwoPhasePurchase<R> {
  kind: intents.IntentRow['kind'];
  request: StoredRequest;
  idempotency: IdempotencyClaim | null;
  /** Status of the answer, as the route sends it (kept with the Idempotency-Key). */
  status: number;
  /** The purchase flow, in one transaction, taking its payment through `step`. */
  run(step: PaymentStep): Promise<R>;
  /**
   * The buyer is present (the hosted checkout): a card that asks for authentication
   * answers AuthenticationRequired instead of failing, and confirmIntent finishes it.
   */
  onSession?: boolean;
  /**
   * Phase (a) in one read, without a transaction or locks, for a flow that can price its
   * payment that way (the billing engine's renewals): the claim's intent, if one was
   * recorded, else the payment, else null to run phase (a) as usual (nothing to pay, or
   * the flow cannot tell from that read). Phase (c) recomputes under its locks and pays
   * only for the same purchase (ChangedWhilePaying), as after phase (a).
   */
  quote?(): Promise<QuickQuote>;
}

/** What a flow's quote found: the claim's earlier intent, or the payment to make. */
export interface QuickQuote {
  earlier: intents.IntentRow | undefined;
  payment: PaymentRequest | null;
}

/** How long a payment waits for its buyer's authentication before the recovery task may fail it. */
export const AUTHENTICATION_WINDOW_MS = 15 * 60 * 1000;

/** An on-session payment is waiting for the buyer to authenticate the card: nothing is recorded yet. */
export class AuthenticationRequired extends Error {
  constructor(readonly intentId: string) {
    super('the payment waits for the buyer to authenticate the card');
  }
}

/** Phase (a) found that money must move: the flow stops there, having written nothing. */
class PaymentNeeded extends Error {
  constructor(readonly request: PaymentRequest) {
    super('a payment is needed');
  }
}

/** Someone else (a retry, the recovery task) settled the intent first. */
class AlreadySettled extends Error {}

/** The purchase that phase (c) computed is not the one phase (a) paid for. */
class ChangedWhilePaying extends Error {}

function keepAnswer(claim: IdempotencyClaim | null, status: number): (tx: Tx, result: Record<string, unknown>) => Promise<void> {
  return async (tx, result) => {
    if (claim && !claim.intentOnly) await idempotencyKeys.keepAnswer(tx, claim.scope, claim.key, status, JSON.stringify(result));
  };
}

function reserveStep(claim: IdempotencyClaim | null, status: number, pricedAt: Date): PaymentStep {
  return {
    pricedAt,
    charge: async (_tx, request) => {
      throw new PaymentNeeded(request);
    },
    // Nothing to pay: the purchase completed in one transaction, its answer kept there too.
    finish: keepAnswer(claim, status),
  };
}

function settledStep(intent: intents.IntentRow, outcome: ChargeOutcome, clock: Clock, claim: IdempotencyClaim | null, status: number): PaymentStep {
  const refused = refusalOf(outcome);
  return {
    pricedAt: intent.created_at,
    async charge(_tx, request) {
      const same =
        request.amountMinor === intent.amount_minor &&
        request.currency === intent.currency &&
        request.method.id === intent.payment_method_id &&
        request.planVersionId === intent.plan_version_id;
      if (!same) throw new ChangedWhilePaying();
      if (refused) throw refused;
      return (outcome as { providerRef: string }).providerRef;
    },
    // A refused payment can still end in a recorded result: a plan change that waits for its payment.
    async finish(tx, result) {
      const settled = await intents.settleIntent(tx, intent.id, {
        status: refused ? 'failed' : 'succeeded',
        provider_ref: refused ? null : (outcome as { providerRef: string }).providerRef,
        failure_code: refused?.code ?? null,
        failure_message: refused?.detail ?? null,
        result,
        at: clock.now(),
      });
      if (!settled) throw new AlreadySettled();
      await keepAnswer(claim, status)(tx, result);
    },
  };
}

async function recordIntent<R>(db: Db, clock: Clock, purchase: TwoPhasePurchase<R>, request: PaymentRequest): Promise<intents.IntentRow> {
  const id = newId();
  const providerRequest: ChargeRequest = {
    methodRef: request.method.provider_ref,
    amountMinor: request.amountMinor,
    currency: request.currency,
    offSession: purchase.onSession !== true,
    description: request.description,
    idempotencyKey: `billow_pi_${id}`,
  };
  try {
    return await intents.insertIntent(db, {
      id,
      environment_id: purchase.request.scope.environmentId,
      customer_id: request.method.customer_id,
      kind: purchase.kind,
      status: 'processing',
      amount_minor: request.amountMinor,
      currency: request.currency,
      provider_key: providerRequest.idempotencyKey,
      payment_method_id: request.method.id,
      method_ref: request.method.provider_ref,
      description: request.description,
      plan_version_id: request.planVersionId,
      request: JSON.stringify(purchase.request),
      idempotency_scope: purchase.idempotency?.scope ?? null,
      idempotency_key: purchase.idempotency?.key ?? null,
      provider_request: JSON.stringify(providerRequest),
      created_at: clock.now(),
      holder: leaseHolderOf(db),
    });
  } catch (error) {
    if (isUniqueViolation(error, intents.ONE_PROCESSING_INDEX)) throw paymentInProgress();
    if (isUniqueViolation(error, intents.IDEMPOTENCY_INDEX)) throw paymentInProgress();
    throw error;
  }
}

/** The answer of an intent that is settled already: its result, or the error it ended with. */
function answerOf<R>(intent: intents.IntentRow): R {
  if (intent.result !== null) return intent.result as R;
  if (intent.status === 'processing') throw paymentInProgress();
  throw recordedPaymentFailure(intent.failure_code, intent.failure_message);
}

async function settleFailure(db: Db, clock: Clock, intent: intents.IntentRow, status: 'failed' | 'reversed', error: DomainError): Promise<void> {
  await inTransaction(db, (tx) =>
    intents.settleIntent(tx, intent.id, {
      status,
      provider_ref: null,
      failure_code: error.code,
      failure_message: error.detail,
      result: null,
      at: clock.now(),
    }),
  );
}

/** Phase (c) could not record a payment that went through: the money goes back. */
async function reverse(db: Db, clock: Clock, intent: intents.IntentRow, chargeRef: string, error: DomainError): Promise<void> {
  const provider = await requireProvider(db, (intent.request as unknown as StoredRequest).scope);
  const outcome = await provider.refund({
    chargeRef,
    amountMinor: intent.amount_minor,
    currency: intent.currency,
    idempotencyKey: `billow_pi_reverse_${intent.id}`,
  });
  if (outcome.status !== 'succeeded') throw new Error(`could not give back payment ${intent.id}: ${outcome.message}`);
  await settleFailure(db, clock, intent, 'reversed', error);
}

/**
 * The provider request of an intent: the one recorded with it, sent again unchanged by a
 * retry, the recovery task or a webhook (a provider refuses its key with other parameters,
 * decision 0050). An intent recorded before requests were kept is rebuilt as it was then.
 */
function chargeRequestOf(intent: intents.IntentRow, onSession: boolean): ChargeRequest {
  if (intent.provider_request) return intent.provider_request as unknown as ChargeRequest;
  return {
    methodRef: intent.method_ref,
    amountMinor: intent.amount_minor,
    currency: intent.currency,
    offSession: !onSession,
    description: intent.description,
    idempotencyKey: intent.provider_key,
  };
}

/**
 * The provider's charge of an intent that is asked about rather than made again: one the
 * provider named in its webhook (a charge that exists needs no second request, whose key
 * the provider may have forgotten by then), or one that waited for its buyer when the buyer
 * is gone (recovery, a webhook): a network provider answers how it ended; the sandbox fails
 * it unauthenticated.
 */
function knownChargeOf(intent: intents.IntentRow, onSession: boolean): string | null {
  if (intent.provider_ref !== null) return intent.provider_ref;
  return intent.action_ref !== null && !onSession ? intent.action_ref : null;
}

/** Phases (b) and (c) of an intent: ask the provider under the intent's key, then settle. */
export async function completeIntent<R>(
  db: Db,
  clock: Clock,
  intent: intents.IntentRow,
  purchase: Pick<TwoPhasePurchase<R>, 'run' | 'idempotency' | 'status' | 'onSession'>,
): Promise<R> {
  const provider = await requireProvider(db, (intent.request as unknown as StoredRequest).scope);
  const known = knownChargeOf(intent, purchase.onSession === true);
  const outcome =
    known && 'confirm' in provider
      ? await (provider as ConfirmingPaymentProvider).confirm({ chargeRef: known, authenticated: false, idempotencyKey: `${intent.provider_key}_confirm` })
      : await provider.charge(chargeRequestOf(intent, purchase.onSession === true));
  failpoint('payment.after-provider');
  if (outcome.status === 'requires_action' && purchase.onSession === true) {
    await intents.awaitAction(db, intent.id, outcome.providerRef, new Date(clock.now().getTime() + AUTHENTICATION_WINDOW_MS));
    throw new AuthenticationRequired(intent.id);
  }
  // Not decided yet: the intent stays processing, for the provider's webhook or the recovery task.
  if (outcome.status === 'processing') throw paymentInProgress();
  return settleOutcome(db, clock, intent, outcome, purchase);
}

/**
 * Phase (c) of an on-session payment that waited for authentication: the provider
 * confirms the charge (the buyer approved) or fails it, and the intent settles as
 * completeIntent would have settled it.
 */
export async function confirmIntent<R>(
  db: Db,
  clock: Clock,
  intent: intents.IntentRow,
  authenticated: boolean,
  purchase: Pick<TwoPhasePurchase<R>, 'run' | 'idempotency' | 'status'>,
): Promise<R> {
  if (intent.status !== 'processing' || intent.action_ref === null) return answerOf<R>(intent);
  const provider = await requireProvider(db, (intent.request as unknown as StoredRequest).scope);
  if (!('confirm' in provider)) throw new Error(`the ${provider.name} provider has no authentication step`);
  const outcome = await (provider as ConfirmingPaymentProvider).confirm({
    chargeRef: intent.action_ref,
    authenticated,
    idempotencyKey: `${intent.provider_key}_confirm`,
  });
  // The buyer has not finished with the card yet (Stripe.js still authenticating): nothing to settle.
  if (outcome.status === 'processing' || (outcome.status === 'requires_action' && authenticated)) throw new AuthenticationRequired(intent.id);
  return settleOutcome(db, clock, intent, outcome, purchase);
}

/** Records the purchase with the provider's answer, or settles the intent failed (giving money back if it moved). */
async function settleOutcome<R>(
  db: Db,
  clock: Clock,
  intent: intents.IntentRow,
  outcome: ChargeOutcome,
  purchase: Pick<TwoPhasePurchase<R>, 'run' | 'idempotency' | 'status'>,
): Promise<R> {
  try {
    const result = await purchase.run(settledStep(intent, outcome, clock, purchase.idempotency, purchase.status));
    failpoint('payment.after-settle');
    return result;
  } catch (error) {
    if (error instanceof AlreadySettled) return answerOf<R>((await intents.findIntent(db, intent.id))!);
    const apiError = error instanceof ChangedWhilePaying ? purchaseChangedWhilePaying() : error;
    if (!(apiError instanceof DomainError)) throw error;
    // Another completer of this intent (a second worker, a retry) recorded it first, which is why
    // the purchase is no longer due: the payment is theirs, kept, and so is their answer.
    const current = (await intents.findIntent(db, intent.id))!;
    if (current.status !== 'processing') return answerOf<R>(current);
    if (outcome.status === 'succeeded') await reverse(db, clock, intent, outcome.providerRef, apiError);
    else await settleFailure(db, clock, intent, 'failed', apiError);
    throw apiError;
  }
}

/** Phase (a): the flow in its transaction; its answer when it moved no money, else the payment it stopped at. */
async function reservePhase<R>(clock: Clock, purchase: TwoPhasePurchase<R>): Promise<{ answer: R } | { payment: PaymentRequest }> {
  try {
    return { answer: await purchase.run(reserveStep(purchase.idempotency, purchase.status, clock.now())) };
  } catch (error) {
    if (!(error instanceof PaymentNeeded)) throw error;
    return { payment: error.request };
  }
}

/**
 * Runs a purchase through the pipeline. A purchase that moves no money completes in
 * its one transaction; a retry of a request (same Idempotency-Key) whose intent is
 * recorded gets that intent's answer, completing it first if it is still processing.
 */
export async function purchaseTwoPhase<R>(db: Db, clock: Clock, purchase: TwoPhasePurchase<R>): Promise<R> {
  const claim = purchase.idempotency;
  const quoted = purchase.quote ? await purchase.quote() : null;
  const earlier = quoted ? quoted.earlier : claim ? await intents.intentOfIdempotencyKey(db, claim.scope, claim.key) : undefined;
  if (earlier) return earlier.status === 'processing' ? completeIntent(db, clock, earlier, purchase) : answerOf<R>(earlier);
  let payment = quoted?.payment ?? null;
  if (!payment) {
    const reserved = await reservePhase(clock, purchase);
    if ('answer' in reserved) return reserved.answer;
    payment = reserved.payment;
  }
  const intent = await recordIntent(db, clock, purchase, payment);
  failpoint('payment.after-intent');
  return completeIntent(db, clock, intent, purchase);
}

/** Intents whose process died before settling them: completed again under their own keys. */
export async function staleIntentsOf(db: Db, clock: Clock, olderThanMs: number): Promise<intents.IntentRow[]> {
  return intents.staleIntents(db, new Date(clock.now().getTime() - olderThanMs), 50);
}
