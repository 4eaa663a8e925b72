/**
 * The payment intent at the heart of both ways a purchase moves money (decision 0026):
 * recorded before the provider is called, the provider asked under the intent's own key,
 * and the intent settled with the purchase's answer, or failed, or its money given back.
 * Used by the pipeline of planned purchases (planned-payment.ts), which runs on the pipeline
 * of every movement of money (money-movement.ts) with the payment intent as its intent.
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
import type { PaymentRequest } from '../modules/purchases/payment.js';
import type { MoneyMovement } from './money-movement.js';

/** What an intent is recorded for: the purchase's kind, its request and claim, and whether its buyer is present. */
export interface IntentOwner {
  kind: intents.IntentRow['kind'];
  request: StoredRequest;
  idempotency: IdempotencyClaim | null;
  onSession?: boolean;
}

/** How long a payment waits for its buyer's authentication before the recovery task may fail it. */
export const AUTHENTICATION_WINDOW_MS = 15 * 60 * 1000;

/** An on-session payment is waiting for the buyer to authenticate the card: nothing is recorded yet. */
export class AuthenticationRequired extends Error {
  constructor(readonly intentId: string) {
    super('the payment waits for the buyer to authenticate the card');
  }
}

/** Someone else (a retry, the recovery task) settled the intent first. */
export class AlreadySettled extends Error {}

/** The purchase that phase (c) computed is not the one phase (a) paid for. */
export class ChangedWhilePaying extends Error {}

export function keepAnswer(claim: IdempotencyClaim | null, status: number): (tx: Tx, result: Record<string, unknown>) => Promise<void> {
  return async (tx, result) => {
    if (claim && !claim.intentOnly) await idempotencyKeys.keepAnswer(tx, claim.scope, claim.key, status, JSON.stringify(result));
  };
}

export async function recordIntent(db: Db, clock: Clock, purchase: IntentOwner, request: PaymentRequest): Promise<intents.IntentRow> {
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
export function answerOf<R>(intent: intents.IntentRow): R {
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

/**
 * Phase (b): the provider asked under the intent's key (or, for a charge it already made,
 * how it ended). An on-session charge that needs the buyer's authentication waits for it;
 * one the provider has not decided yet leaves the intent processing.
 */
export async function askProvider(db: Db, clock: Clock, intent: intents.IntentRow, onSession: boolean): Promise<ChargeOutcome> {
  const provider = await requireProvider(db, (intent.request as unknown as StoredRequest).scope);
  const known = knownChargeOf(intent, onSession);
  const outcome =
    known && 'confirm' in provider
      ? await (provider as ConfirmingPaymentProvider).confirm({ chargeRef: known, authenticated: false, idempotencyKey: `${intent.provider_key}_confirm` })
      : await provider.charge(chargeRequestOf(intent, onSession));
  failpoint('payment.after-provider');
  if (outcome.status === 'requires_action' && onSession) {
    await intents.awaitAction(db, intent.id, outcome.providerRef, new Date(clock.now().getTime() + AUTHENTICATION_WINDOW_MS));
    throw new AuthenticationRequired(intent.id);
  }
  // Not decided yet: the intent stays processing, for the provider's webhook or the recovery task.
  if (outcome.status === 'processing') throw paymentInProgress();
  return outcome;
}

/**
 * Phase (c): `settle` records the purchase with the provider's answer and settles the
 * intent; when it cannot, the intent is failed, and money that moved goes back. An
 * intent that someone else settled first answers what they recorded.
 */
export async function settleOrUndo<R>(db: Db, clock: Clock, intent: intents.IntentRow, outcome: ChargeOutcome, settle: () => Promise<R>): Promise<R> {
  try {
    const result = await settle();
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

/** Whether a payment priced again is the one the intent was recorded for. */
export function samePayment(request: PaymentRequest, intent: intents.IntentRow): boolean {
  return (
    request.amountMinor === intent.amount_minor &&
    request.currency === intent.currency &&
    request.method.id === intent.payment_method_id &&
    request.planVersionId === intent.plan_version_id
  );
}

/** Phase (a) as far as a purchase's flow or plan could tell its payment: the payment to make, or the answer. */
export type PaymentFound<R> = { answer: R } | { payment: PaymentRequest };

/**
 * The parts of a movement of money that are the same for every purchase: the intent a first
 * run recorded under the claim (or the quote found), and phase (a) ending in an intent
 * recorded for the payment the quote or `findPayment` found.
 */
export function paymentIntentMovement<R>(
  db: Db,
  clock: Clock,
  owner: IntentOwner,
  quoted: { earlier: intents.IntentRow | undefined; payment: PaymentRequest | null } | null,
  findPayment: () => Promise<PaymentFound<R>>,
): Pick<MoneyMovement<intents.IntentRow, ChargeOutcome, R>, 'earlier' | 'pending' | 'answerOf' | 'reserve'> {
  const claim = owner.idempotency;
  return {
    earlier: async () => (quoted ? quoted.earlier : claim ? intents.intentOfIdempotencyKey(db, claim.scope, claim.key) : undefined),
    pending: (intent) => intent.status === 'processing',
    answerOf: (intent) => answerOf<R>(intent),
    reserve: async () => {
      const found: PaymentFound<R> = quoted?.payment ? { payment: quoted.payment } : await findPayment();
      if ('answer' in found) return found;
      const intent = await recordIntent(db, clock, owner, found.payment);
      failpoint('payment.after-intent');
      return { intent };
    },
  };
}
