import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import { purgeExpiredIdempotencyKeys } from '../http/idempotency.js';
import { SubscriptionService } from '../modules/subscriptions/service.js';
import type { PeriodicTask } from './scheduler.js';
import { recoverPayments, recoverRefunds } from './recover-payments.js';

export interface TaskDeps {
  /** How long an activate_on_payment change waits for its payment (config). */
  pendingUpdateTtlMs: number;
  /** How long a payment may stay processing before the recovery task completes it (config). */
  paymentRecoveryAfterMs: number;
  /** Deletes uploads that were never attached, a while after they expired. */
  sweepMedia(): Promise<number>;
}

export function backgroundTasks(db: Db, clock: Clock, deps: TaskDeps): PeriodicTask[] {
  const subscriptions = new SubscriptionService(db, clock);
  return [
    {
      name: 'recover-payments',
      everyMs: Math.min(30_000, Math.ceil(deps.paymentRecoveryAfterMs / 2)),
      run: async () => {
        const refunds = await recoverRefunds(db, clock, deps.paymentRecoveryAfterMs);
        const { settled: charges, failures } = await recoverPayments(db, clock, deps.pendingUpdateTtlMs, deps.paymentRecoveryAfterMs);
        const settled = charges + refunds;
        if (failures.length > 0) return `settled ${settled} payments left processing by a stopped process; ${failures.join('; ')}`;
        return settled > 0 ? `settled ${settled} payments left processing by a stopped process` : undefined;
      },
    },
    {
      name: 'expire-pending-subscription-updates',
      everyMs: 60 * 1000,
      run: async () => {
        const expired = await subscriptions.expirePendingUpdates();
        return expired > 0 ? `expired ${expired} unpaid subscription changes` : undefined;
      },
    },
    {
      name: 'purge-idempotency-keys',
      everyMs: 15 * 60 * 1000,
      run: async () => {
        const purged = await purgeExpiredIdempotencyKeys(db, clock);
        return purged > 0 ? `purged ${purged} expired idempotency keys` : undefined;
      },
    },
    {
      name: 'sweep-unused-uploads',
      everyMs: 60 * 60 * 1000,
      run: async () => {
        const swept = await deps.sweepMedia();
        return swept > 0 ? `deleted ${swept} uploads that were never attached` : undefined;
      },
    },
  ];
}
