import type { SubscriptionCancel } from '@billow/contract';
import { clockAt, type Clock } from '../lib/clock.js';
import type { AnswerKeeper } from '../db/answer-keeper.js';
import { renewSubscription, type EngineDeps } from './renew-subscription.js';
import * as repo from '../modules/subscriptions/queries.js';
import { type SubscriptionScope } from '../modules/subscriptions/service.js';
import { isNotNow, notCancellable } from '../modules/subscriptions/errors.js';
import { cancellationEnd } from '../modules/subscriptions/requests.compute.js';
import { subscriptionEventObject } from '../modules/subscriptions/view.js';

import { changingSubscriptions, customerNow, lockLiveSubscription, subscriptionEventAt, type WriteContext } from '../modules/subscriptions/writes.js';

const LIVE = ['active', 'trialing', 'past_due'] as const;

/** Cancelling a subscription, now or at a later date, as the merchant (API) or the customer (portal). */
export class Cancellation {
  constructor(
    private readonly writes: WriteContext,
    private readonly clock: Clock,
  ) {}

  /**
   * The API cancels as the merchant; the portal as the customer (DOMAIN.md §3.6). A
   * cancellation for later is recorded now and takes effect then; one for now takes
   * effect at once as the billing engine's end does (decision 0048): the usage of the
   * period it cuts short is billed, then the subscription is canceled. `keep`: the
   * request's Idempotency-Key keeps the answer with the cancellation (decision 0051);
   * should the process die before the end runs, the engine's sweep runs it.
   */
  async cancel(
    scope: SubscriptionScope,
    id: string,
    input: SubscriptionCancel,
    reason: 'CANCELLED_BY_MERCHANT' | 'CANCELLED_BY_CUSTOMER' = 'CANCELLED_BY_MERCHANT',
    keep?: AnswerKeeper,
  ) {
    const answer = { message: 'Subscription cancellation processed successfully.' };
    let owner: string | null = null;
    const endsAt = await changingSubscriptions(this.writes, scope, () => owner, async (tx) => {
      const { row, customer } = await lockLiveSubscription(tx, scope, id);
      owner = customer.customer_id;
      if (!(LIVE as readonly string[]).includes(row.status)) {
        throw notCancellable(row.status);
      }
      const now = await customerNow(tx, customer, this.clock);
      const endDate = cancellationEnd(input, row, now);
      const immediate = endDate.getTime() <= now.getTime();
      const updated = await repo.updateSubscription(tx, row.id, {
        end_date: immediate ? now : endDate,
        canceled_at: now,
        cancellation_reason: reason,
        cancellation_feedback: input.cancellationFeedback ?? null,
        cancellation_comment: input.cancellationComment ?? null,
        modified_at: now,
      });
      await keep?.keep(tx, answer);
      if (immediate) return now;
      await subscriptionEventAt(tx, scope, now, 'subscription.updated', await subscriptionEventObject(tx, updated, scope.organizationId), { end_date: null });
      return null;
    });
    if (endsAt) await this.endNow(scope, id, owner!, endsAt);
    return answer;
  }

  /** The end due now runs at once (renew-subscription.ts): its usage billed once, under the end's own key, then subscription.cancelled. */
  private async endNow(scope: SubscriptionScope, id: string, customerId: string, at: Date): Promise<void> {
    const deps: EngineDeps = {
      db: this.writes.db,
      // An ended subscription's last invoice is not retried: no schedule is needed.
      dunning: [],
      announce: async (tx, environmentId, owner) => {
        await this.writes.changes?.announce(tx, environmentId, owner);
      },
    };
    try {
      await renewSubscription(deps, clockAt(at), scope, id, { kind: 'end', at });
    } catch (error) {
      // The billing engine ended it meanwhile, or will (another payment of the customer is under way).
      if (!isNotNow(error)) throw error;
    } finally {
      this.writes.changes?.forget(scope.environmentId, customerId);
    }
  }
}
