import type Stripe from 'stripe';
import type { Db } from '../../../db/connect.js';
import { inTransaction } from '../../../db/transaction.js';
import type { Clock } from '../../../lib/clock.js';
import * as intents from '../../intents/queries.js';
import * as ledger from '../../ledger/queries.js';
import { invalidStripeSignature, stripeWebhookEndpointNotFound } from '../errors.js';
import { stripeClient } from './client.js';
import * as repo from './repo.js';
import { stripeSecretsOf } from './settings.js';

/** Settles a processing intent now, as the recovery task would (wired in app.ts: jobs/recover-payments.ts). */
export type SettleIntent = (intent: intents.IntentRow) => Promise<void>;

export interface WebhookAnswer {
  received: true;
  /** This event id was handled before: nothing was done again. */
  duplicate: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Events that say how a PaymentIntent ended. `processing` only acknowledges: its end comes later. */
const SETTLING = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed', 'payment_intent.canceled']);

/**
 * Stripe's deliveries to `/providers/stripe/webhook/{environmentId}`: verified with the
 * environment's signing secret (the official library, on the raw body), then acted on
 * once per Stripe event id. A payment's outcome settles its intent through the same
 * path as the recovery task (so a webhook and a retry never record a purchase twice);
 * a dispute opened becomes an event of the order it disputes.
 */
export class StripeWebhooks {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settle: SettleIntent,
  ) {}

  async receive(environmentId: string, raw: Buffer, signature: string | undefined): Promise<WebhookAnswer> {
    const environment = UUID.test(environmentId) ? await repo.findEnvironment(this.db, environmentId) : undefined;
    const secrets = environment ? await stripeSecretsOf(this.db, environmentId) : null;
    if (!environment || !secrets) throw stripeWebhookEndpointNotFound();
    if (!signature) throw invalidStripeSignature('the header is missing');
    let event: Stripe.Event;
    try {
      event = (await stripeClient(secrets.secretKey, null)).webhooks.constructEvent(raw, signature, secrets.webhookSecret);
    } catch (error) {
      throw invalidStripeSignature(error instanceof Error ? error.message : 'unreadable');
    }
    if (await repo.providerEventSeen(this.db, environmentId, event.id)) return { received: true, duplicate: true };
    if (SETTLING.has(event.type)) await this.settlePayment(environmentId, event.data.object as Stripe.PaymentIntent);
    const recorded = await inTransaction(this.db, async (tx) => {
      const first = await repo.claimProviderEvent(tx, environmentId, event.id, event.type, this.clock.now());
      if (first && event.type === 'charge.dispute.created') await this.recordDispute(tx, environmentId, event.data.object as Stripe.Dispute);
      return first;
    });
    return { received: true, duplicate: !recorded };
  }

  private async settlePayment(environmentId: string, paymentIntent: Stripe.PaymentIntent): Promise<void> {
    const key = paymentIntent.metadata?.billow_key;
    const intent = key ? await intents.intentOfProviderKey(this.db, environmentId, key) : undefined;
    if (intent?.status !== 'processing') return;
    await intents.noteProviderCharge(this.db, intent.id, paymentIntent.id);
    await this.settle({ ...intent, provider_ref: paymentIntent.id });
  }

  private async recordDispute(tx: Parameters<typeof ledger.insertOrderEvent>[0], environmentId: string, dispute: Stripe.Dispute): Promise<void> {
    const paymentIntent = typeof dispute.payment_intent === 'string' ? dispute.payment_intent : dispute.payment_intent?.id;
    const order = paymentIntent ? await ledger.orderOfCharge(tx, environmentId, paymentIntent) : undefined;
    if (!order) return;
    await ledger.insertOrderEvent(tx, {
      environmentId,
      orderId: order.id,
      subscriptionId: order.subscription_id,
      code: 'order.dispute_opened',
      title: 'Payment disputed',
      status: 'failed',
      metadata: { disputeId: dispute.id, reason: dispute.reason, amount: dispute.amount, currency: dispute.currency.toUpperCase(), status: dispute.status },
      at: this.clock.now(),
    });
  }
}
