/**
 * The one pipeline through which money moves, in either direction (decision 0026, 0083):
 *
 *   (a) reserve: load under locks, plan with a pure function, and record the plan's
 *       intent (a payment intent, a PROCESSING refund) in one transaction, or answer at
 *       once when the plan moves no money;
 *   (b) execute: ask the provider, outside any transaction, under a key derived from
 *       the intent, so that asking twice moves the money once;
 *   (c) settle: record the provider's answer with the plan, and settle the intent, in a
 *       second transaction.
 *
 * A request retried with its Idempotency-Key finds the intent its first run recorded:
 * one still waiting for the provider is carried on from (b), a settled one answers as it
 * ended. The recovery tasks carry on intents whose process died the same way.
 */

export interface MoneyMovement<I, O, R> {
  /** The intent a first run of the same request recorded, if any. */
  earlier(): Promise<I | undefined>;
  /** Whether that intent still waits for the provider's answer. */
  pending(intent: I): boolean;
  /** The answer of an intent that has ended. */
  answerOf(intent: I): Promise<R> | R;
  /** Phase (a): the recorded intent, or the answer when no money moves. */
  reserve(): Promise<{ intent: I } | { answer: R }>;
  /** Phase (b): the provider's answer, outside any transaction. */
  execute(intent: I): Promise<O>;
  /** Phase (c): the answer recorded and the intent settled, in one transaction. */
  settle(intent: I, outcome: O): Promise<R>;
}

/** Phases (b) and (c) of a recorded intent. */
export async function carryOn<I, O, R>(movement: Pick<MoneyMovement<I, O, R>, 'execute' | 'settle'>, intent: I): Promise<R> {
  return movement.settle(intent, await movement.execute(intent));
}

/** Runs a movement of money from its start, or from where its first run stopped. */
export async function moveMoney<I, O, R>(movement: MoneyMovement<I, O, R>): Promise<R> {
  const earlier = await movement.earlier();
  if (earlier != null) return movement.pending(earlier) ? carryOn(movement, earlier) : movement.answerOf(earlier);
  const reserved = await movement.reserve();
  return 'answer' in reserved ? reserved.answer : carryOn(movement, reserved.intent);
}
