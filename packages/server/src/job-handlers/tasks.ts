import type { Db } from '../db/connect.js';
import { entitlementAnnouncer, type EntitlementChanges } from '../edge-cache/change-feed.js';
import type { MailConfig } from '../config.js';
import type { Clock } from '../lib/clock.js';
import { purgeExpiredIdempotencyKeys } from '../modules/idempotency/retention.js';
import type { JobHandlers } from '../modules/jobs/runner.js';
import { purgeSucceededJobs } from '../modules/jobs/service.js';
import { EXPIRE_PENDING_UPDATE_JOB, SubscriptionService } from '../modules/subscriptions/service.js';
import { CheckoutService, EXPIRE_CHECKOUT_JOB } from '../modules/checkout/service.js';
import { CashService } from '../modules/analytics/cash.service.js';
import { AnalyticsService } from '../modules/analytics/service.js';
import { testClockJobs } from './test-clocks.js';
import { billingJobs, type BillingSettings } from './billing.js';
import { mailJobs } from './mail.js';
import { recoverPayments, recoverRefunds } from './recover-payments.js';
import { stringField } from './payload.js';
import { pruneWebhookLogs } from '../modules/webhooks/queries.js';

export interface TaskDeps {
  /** How long an activate_on_payment change waits for its payment (config). */
  pendingUpdateTtlMs: number;
  /** How long a payment may stay processing before the recovery task completes it (config). */
  paymentRecoveryAfterMs: number;
  /** How long a succeeded job is kept before it is purged (config). */
  jobRetentionMs: number;
  /** Deletes uploads that were never attached, a while after they expired. */
  sweepMedia(): Promise<number>;
  /** How long webhook delivery logs are kept (config). */
  webhookLogRetentionMs?: number;
  /** Renewals and dunning (config). */
  billing: BillingSettings;
  /** How billing announces what customers may use: this process's cache too, when it serves the Edge API. */
  entitlementChanges?: EntitlementChanges;
  /** Outgoing email (config); none: messages queued for SMTP wait, and the send-mail job fails until it is set. */
  mail?: MailConfig;
  /** BILLOW_PUBLIC_URL: the absolute address emails link to (the portal, the seller's logo); none: they carry no such link. */
  publicUrl?: string | null;
}

const MINUTE = 60 * 1000;

/** Every job Billow runs in the background: the recurring tasks and the jobs that domain changes enqueue. */
export function backgroundJobs(db: Db, clock: Clock, deps: TaskDeps): JobHandlers {
  const subscriptions = new SubscriptionService(db, clock);
  const changes = deps.entitlementChanges ?? entitlementAnnouncer();
  const analytics = new AnalyticsService(db, clock);
  const cash = new CashService(db, clock);
  return {
    ...billingJobs(db, clock, deps.billing, changes),
    ...testClockJobs(db, clock, deps.billing.dunningDays, changes),
    ...mailJobs(db, clock, deps.mail ?? { smtpUrl: null, from: null }, {
      publicUrl: deps.publicUrl ?? null,
      dunningDays: deps.billing.dunningDays,
      sweepIntervalMs: deps.billing.sweepIntervalMs,
    }),
    'recover-payments': {
      everyMs: Math.min(30_000, Math.ceil(deps.paymentRecoveryAfterMs / 2)),
      runAtStart: true,
      run: async () => {
        const refunds = await recoverRefunds(db, clock, deps.paymentRecoveryAfterMs);
        const { settled: charges, failures } = await recoverPayments(db, clock, deps.pendingUpdateTtlMs, deps.paymentRecoveryAfterMs, deps.billing.dunningDays);
        const settled = charges + refunds;
        if (failures.length > 0) return `settled ${settled} payments left processing by a stopped process; ${failures.join('; ')}`;
        return settled > 0 ? `settled ${settled} payments left processing by a stopped process` : undefined;
      },
    },
    [EXPIRE_PENDING_UPDATE_JOB]: {
      run: async (payload) => {
        const subscriptionId = stringField(payload, 'subscriptionId');
        const expired = await subscriptions.expirePendingUpdate(stringField(payload, 'environmentId'), subscriptionId);
        return expired ? `expired the unpaid subscription change ${subscriptionId}` : undefined;
      },
    },
    [EXPIRE_CHECKOUT_JOB]: {
      run: async (payload) => {
        const sessionId = stringField(payload, 'sessionId');
        const expired = await new CheckoutService(db, clock).expire(sessionId);
        return expired ? `expired the checkout session ${sessionId}` : undefined;
      },
    },
    'price-analytics': {
      everyMs: 10_000,
      runAtStart: true,
      run: async () => {
        const priced = await analytics.priceLog();
        const folded = await cash.foldPending();
        const said = [priced > 0 ? `counted ${priced} subscription changes into the revenue analytics` : '', folded > 0 ? `folded the new payments of ${folded} environments into the cash figures` : ''];
        return said.filter(Boolean).join('; ') || undefined;
      },
    },
    'purge-idempotency-keys': {
      everyMs: 15 * MINUTE,
      run: async () => {
        const purged = await purgeExpiredIdempotencyKeys(db, clock);
        return purged > 0 ? `purged ${purged} expired idempotency keys` : undefined;
      },
    },
    'sweep-unused-uploads': {
      everyMs: 60 * MINUTE,
      run: async () => {
        const swept = await deps.sweepMedia();
        return swept > 0 ? `deleted ${swept} uploads that were never attached` : undefined;
      },
    },
    'prune-webhook-logs': {
      everyMs: 60 * MINUTE,
      run: async () => {
        const retention = deps.webhookLogRetentionMs ?? 30 * 24 * 60 * MINUTE;
        const pruned = await pruneWebhookLogs(db, new Date(clock.now().getTime() - retention));
        return pruned > 0 ? `pruned ${pruned} webhook delivery logs older than ${Math.round(retention / MINUTE / 60 / 24)} days` : undefined;
      },
    },
    'purge-finished-jobs': {
      everyMs: 60 * MINUTE,
      run: async () => {
        const purged = await purgeSucceededJobs(db, clock, deps.jobRetentionMs);
        return purged > 0 ? `purged ${purged} succeeded jobs` : undefined;
      },
    },
  };
}
