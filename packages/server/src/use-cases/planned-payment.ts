/**
 * A purchase whose payment is a value (issue 26): the use case loads what it depends on
 * under its locks and plans it with a pure function; the plan names the payment it needs.
 * It runs on the pipeline of every movement of money (money-movement.ts), never waiting on
 * the network inside a transaction (decision 0026):
 *
 *   (a) plans; a plan that needs no payment is committed in the same transaction;
 *       otherwise a payment intent is recorded for the plan's payment;
 *   (b) asks the provider, outside any transaction, under the intent's key;
 *   (c) plans again under the same locks, commits that plan with the payment's outcome
 *       (paid, or refused: the plan decides what a refusal leaves, such as an unpaid
 *       invoice and its dunning) and settles the intent, in one transaction. A plan whose
 *       payment is no longer the one the intent paid (the state moved meanwhile) commits
 *       nothing, and the money goes back.
 *
 * No step of the use case runs twice around a charge, and none is stopped by an
 * exception: the plan says what is paid, the commit records what was.
 */
import type { Clock } from '../lib/clock.js';
import type { Db } from '../db/connect.js';
import { inTransaction, type Tx } from '../db/transaction.js';
import type { IdempotencyClaim, StoredRequest } from '../modules/intents/claims.js';
import * as intents from '../modules/intents/queries.js';
import type { ChargeOutcome, ConfirmingPaymentProvider } from '../modules/payments/provider.js';
import { requireProvider } from '../modules/payments/providers.js';
import { refusalOf, type PaymentOutcome, type PaymentRequest } from '../modules/purchases/payment.js';
import {
  AlreadySettled,
  answerOf,
  askProvider,
  AuthenticationRequired,
  ChangedWhilePaying,
  keepAnswer,
  paymentIntentMovement,
  samePayment,
  settleOrUndo,
} from './payment-intent.js';
import { carryOn, moveMoney, type MoneyMovement } from './money-movement.js';

export type { IdempotencyClaim, PaymentOutcome, StoredRequest };
export { AUTHENTICATION_WINDOW_MS, AuthenticationRequired } from './payment-intent.js';

/** What a use case's quote found in one unlocked read: the claim's earlier intent, or the payment to make. */
export interface QuickQuote {
  earlier: intents.IntentRow | undefined;
  payment: PaymentRequest | null;
}

/** A plan, and the payment it needs (null: none). */
export interface Planned<P> {
  plan: P;
  payment: PaymentRequest | null;
}

export interface PlannedPurchase<P, R extends Record<string, unknown>> {
  kind: intents.IntentRow['kind'];
  request: StoredRequest;
  idempotency: IdempotencyClaim | null;
  /** Status of the answer, as a route would send it (kept with the Idempotency-Key). */
  status: number;
  /**
   * Phase (a) in one unlocked read, for a use case that can price its payment that way (the
   * billing engine's renewals): the claim's intent, if one was recorded, else the payment,
   * else null to plan under the locks as usual. Phase (c) plans again under its locks and
   * pays only for the same payment (ChangedWhilePaying).
   */
  quote?(): Promise<QuickQuote>;
  /**
   * The buyer is present (the hosted pages): a card that asks for authentication answers
   * AuthenticationRequired instead of failing, and confirmPlanned finishes the payment.
   */
  onSession?: boolean;
  /**
   * Loads what the purchase depends on, under its locks, and plans it. Writes nothing.
   * `pricedAt`: when the payment was asked for (its intent's time) in phase (c), so that a
   * purchase priced by the moment (a proration) plans the payment the intent made; null in phase (a).
   */
  plan(tx: Tx, pricedAt: Date | null): Promise<Planned<P>>;
  /** Records the plan with its payment's outcome, in the transaction that planned it; the answer. */
  commit(tx: Tx, plan: P, outcome: PaymentOutcome): Promise<R>;
}

/**
 * A purchase as a use case offers it to another that buys through it (the checkout): planned
 * under its locks, and recorded with the provider's reference of what its payment took
 * (null: nothing was charged). Writes nothing when planning.
 */
export interface PurchasePlanner<P, R> {
  plan(tx: Tx): Promise<Planned<P>>;
  commit(tx: Tx, plan: P, chargeRef: string | null): Promise<R>;
}

/** The planned purchase of a planner whose refused payment is the purchase's error (nothing is recorded). */
export function plannedPurchase<P, R extends Record<string, unknown>>(
  owner: Pick<PlannedPurchase<P, R>, 'kind' | 'request' | 'idempotency' | 'status' | 'onSession'>,
  planner: PurchasePlanner<P, R>,
): PlannedPurchase<P, R> {
  return {
    ...owner,
    plan: (tx) => planner.plan(tx),
    commit: (tx, plan, outcome) => {
      if (outcome.kind === 'refused') throw outcome.error;
      return planner.commit(tx, plan, outcome.kind === 'paid' ? outcome.chargeRef : null);
    },
  };
}

/** Phase (a) found a payment to make: the transaction that planned it wrote nothing, and ends unused. */
class NothingToCommit extends Error {
  constructor(readonly payment: PaymentRequest) {
    super('the plan needs a payment first');
  }
}

/** Phase (a): the plan committed at once when it moves no money; else the payment to make. */
async function planPhase<P, R extends Record<string, unknown>>(db: Db, purchase: PlannedPurchase<P, R>): Promise<{ answer: R } | { payment: PaymentRequest }> {
  try {
    const answer = await inTransaction(db, async (tx) => {
      const { plan, payment } = await purchase.plan(tx, null);
      // Rolled back rather than committed: the locks' statements may carry announcements for a commit.
      if (payment) throw new NothingToCommit(payment);
      const result = await purchase.commit(tx, plan, { kind: 'none' });
      await keepAnswer(purchase.idempotency, purchase.status)(tx, result);
      return result;
    });
    return { answer };
  } catch (error) {
    if (error instanceof NothingToCommit) return { payment: error.payment };
    throw error;
  }
}

function outcomeOf(outcome: ChargeOutcome): PaymentOutcome {
  const refused = refusalOf(outcome);
  if (refused) return { kind: 'refused', code: refused.code, message: refused.detail, error: refused };
  return { kind: 'paid', chargeRef: (outcome as { providerRef: string }).providerRef };
}

/** Phase (c): planned again under the locks; committed with the outcome when it still pays what the intent paid. */
function settlePhase<P, R extends Record<string, unknown>>(db: Db, clock: Clock, intent: intents.IntentRow, outcome: ChargeOutcome, purchase: PlannedPurchase<P, R>) {
  const paid = outcomeOf(outcome);
  return inTransaction(db, async (tx) => {
    const { plan, payment } = await purchase.plan(tx, intent.created_at);
    if (!payment || !samePayment(payment, intent)) throw new ChangedWhilePaying();
    const result = await purchase.commit(tx, plan, paid);
    const settled = await intents.settleIntent(tx, intent.id, {
      status: paid.kind === 'paid' ? 'succeeded' : 'failed',
      provider_ref: paid.kind === 'paid' ? paid.chargeRef : null,
      failure_code: paid.kind === 'refused' ? paid.code : null,
      failure_message: paid.kind === 'refused' ? paid.message : null,
      result,
      at: clock.now(),
    });
    if (!settled) throw new AlreadySettled();
    await keepAnswer(purchase.idempotency, purchase.status)(tx, result);
    return result;
  });
}

/** Phases (b) and (c) of a planned purchase's intent. */
function plannedExecution<P, R extends Record<string, unknown>>(db: Db, clock: Clock, purchase: PlannedPurchase<P, R>): Pick<MoneyMovement<intents.IntentRow, ChargeOutcome, R>, 'execute' | 'settle'> {
  return {
    execute: (intent) => askProvider(db, clock, intent, purchase.onSession === true),
    settle: (intent, outcome) => settleOrUndo(db, clock, intent, outcome, () => settlePhase(db, clock, intent, outcome, purchase)),
  };
}

/**
 * Runs a planned purchase on the pipeline of every movement of money (money-movement.ts).
 * Its claim's intent, when one was recorded, is completed (or answers how it ended); a
 * plan without a payment is committed in one transaction.
 */
export async function purchasePlanned<P, R extends Record<string, unknown>>(db: Db, clock: Clock, purchase: PlannedPurchase<P, R>): Promise<R> {
  const quoted = purchase.quote ? await purchase.quote() : null;
  return moveMoney<intents.IntentRow, ChargeOutcome, R>({
    ...paymentIntentMovement(db, clock, purchase, quoted, () => planPhase(db, purchase)),
    ...plannedExecution(db, clock, purchase),
  });
}

/** Completes the intent a planned purchase recorded, whose process died (the recovery task) or whose provider answered (a webhook). */
export function completePlanned<P, R extends Record<string, unknown>>(db: Db, clock: Clock, intent: intents.IntentRow, purchase: PlannedPurchase<P, R>): Promise<R> {
  return carryOn(plannedExecution(db, clock, purchase), intent);
}

/**
 * Phase (c) of an on-session payment that waited for its buyer's authentication: the
 * provider confirms the charge (the buyer approved) or fails it, and the plan is committed
 * with that outcome as it would have been at once.
 */
export async function confirmPlanned<P, R extends Record<string, unknown>>(
  db: Db,
  clock: Clock,
  intent: intents.IntentRow,
  authenticated: boolean,
  purchase: PlannedPurchase<P, R>,
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
  return settleOrUndo(db, clock, intent, outcome, () => settlePhase(db, clock, intent, outcome, purchase));
}

/** Intents whose process died before settling them: completed again under their own keys. */
export async function staleIntentsOf(db: Db, clock: Clock, olderThanMs: number): Promise<intents.IntentRow[]> {
  return intents.staleIntents(db, new Date(clock.now().getTime() - olderThanMs), 50);
}
