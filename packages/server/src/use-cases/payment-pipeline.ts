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
import type { Db } from '../db/connect.js';
import * as intents from '../modules/intents/queries.js';
import type { IdempotencyClaim, StoredRequest } from '../modules/intents/claims.js';
import type { ChargeOutcome, ConfirmingPaymentProvider } from '../modules/payments/provider.js';
import { requireProvider } from '../modules/payments/providers.js';
import { refusalOf, type PaymentRequest, type PaymentStep } from '../modules/purchases/payment.js';
import { AlreadySettled, answerOf, askProvider, AuthenticationRequired, ChangedWhilePaying, keepAnswer, paymentIntentMovement, samePayment, settleOrUndo } from './payment-intent.js';
import { moveMoney } from './money-movement.js';

export { AUTHENTICATION_WINDOW_MS, AuthenticationRequired } from './payment-intent.js';

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

/** Phase (a) found that money must move: the flow stops there, having written nothing. */
class PaymentNeeded extends Error {
  constructor(readonly request: PaymentRequest) {
    super('a payment is needed');
  }
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
      if (!samePayment(request, intent)) throw new ChangedWhilePaying();
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

/** Phases (b) and (c) of an intent: ask the provider under the intent's key, then settle. */
export async function completeIntent<R>(
  db: Db,
  clock: Clock,
  intent: intents.IntentRow,
  purchase: Pick<TwoPhasePurchase<R>, 'run' | 'idempotency' | 'status' | 'onSession'>,
): Promise<R> {
  const outcome = await askProvider(db, clock, intent, purchase.onSession === true);
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
  return settleOrUndo(db, clock, intent, outcome, () => purchase.run(settledStep(intent, outcome, clock, purchase.idempotency, purchase.status)));
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
  const quoted = purchase.quote ? await purchase.quote() : null;
  return moveMoney<intents.IntentRow, ChargeOutcome, R>({
    ...paymentIntentMovement(db, clock, purchase, quoted, () => reservePhase(clock, purchase)),
    execute: (intent) => askProvider(db, clock, intent, purchase.onSession === true),
    settle: (intent, outcome) => settleOutcome(db, clock, intent, outcome, purchase),
  });
}

/** Intents whose process died before settling them: completed again under their own keys. */
export async function staleIntentsOf(db: Db, clock: Clock, olderThanMs: number): Promise<intents.IntentRow[]> {
  return intents.staleIntents(db, new Date(clock.now().getTime() - olderThanMs), 50);
}
