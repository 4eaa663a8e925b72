/**
 * The subscription use cases that move money or end service (use-cases/subscription-changes.ts),
 * as the routes of this module and the portal ask for them; app.ts hands them in.
 */
import type { SubscriptionCancel, SubscriptionChangePreview, SubscriptionCreate, SubscriptionCreated, SubscriptionUpdate } from '@billow/contract';
import type { AnswerKeeper } from '../../db/answer-keeper.js';
import type { IdempotencyClaim } from '../intents/claims.js';
import type { SubscriptionScope } from './service.js';

/** A change's answer: the new record, and where a change that waits for its payment is paid. */
export interface SubscriptionUpdated {
  subscriptionId: string;
  checkoutUrl?: string;
  checkoutSessionId?: string;
}

export interface SubscriptionWrites {
  create(scope: SubscriptionScope, input: SubscriptionCreate, idempotency?: IdempotencyClaim | null): Promise<SubscriptionCreated>;
  update(scope: SubscriptionScope, id: string, input: SubscriptionUpdate, idempotency?: IdempotencyClaim | null): Promise<SubscriptionUpdated>;
  /** What `update` would cost now, with nothing charged or recorded. */
  previewUpdate(scope: SubscriptionScope, id: string, input: SubscriptionUpdate): Promise<SubscriptionChangePreview>;
  cancel(
    scope: SubscriptionScope,
    id: string,
    input: SubscriptionCancel,
    reason?: 'CANCELLED_BY_MERCHANT' | 'CANCELLED_BY_CUSTOMER',
    keep?: AnswerKeeper,
  ): Promise<{ message: string }>;
}
