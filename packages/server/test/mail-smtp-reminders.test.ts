/**
 * The dunning, cancellation and reminder emails in production (issue 28, item 1; decisions
 * 0070, 0071): they leave by SMTP (a real server on 127.0.0.1), to the buyer, once. Production
 * has no test clocks: the server's own clock is moved by the test, and the workers' sweeps
 * (billing, reminders) run as they would on a running Billow at those instants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { enqueueJob } from '../src/modules/jobs/service.js';
import { Reminders } from '../src/modules/mail/queries.js';
import type { Shop } from './commerce-support.js';
import type { TestOrg, TestServer } from './harness.js';
import { headerOf, SmtpSink, subjectOf, unquoted, type ReceivedMail } from './smtp-support.js';
import type { StripeStandIn } from './stripe/stand-in.js';
import { configureStripe, stripeCard, stripeShop } from './stripe/support.js';

const sink = new SmtpSink();
const UNSUBSCRIBE = '<mailto:help@shop.example?subject=unsubscribe>';
const clock = new ManualClock(new Date('2034-06-01T10:00:00Z'));
let stand: StripeStandIn;
let server: TestServer;
let s: Shop;
let org: TestOrg;
let slug: string;

beforeAll(async () => {
  const smtpUrl = await sink.start();
  ({ stand, server, s, org } = await stripeShop('', {
    clock,
    env: { BILLOW_SMTP_URL: smtpUrl, BILLOW_MAIL_FROM: 'Billing <billing@shop.example>', BILLOW_PUBLIC_URL: 'https://billing.shop.example', BILLOW_DUNNING_RETRY_DAYS: '1,3' },
  }));
  await configureStripe(s);
  const profile = await s.call('PATCH', '/seller-profile/', { displayName: 'Shop & Co', supportEmail: 'help@shop.example' });
  if (profile.status !== 200) throw new Error(`profile: ${profile.status} ${profile.text}`);
  slug = (await server.database.db.selectFrom('organizations').select('slug').where('id', '=', org.organizationId).executeTakeFirstOrThrow()).slug!;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await stand?.close();
  await sink.close();
});

function expectStatus(res: { status: number; text: string }, status: number) {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

/** Moves the server's clock and runs what a worker runs then: the billing and reminder sweeps, their jobs, and the emails' composition. */
async function at(iso: string): Promise<void> {
  clock.set(new Date(iso));
  for (const name of ['billing-sweep', 'mail-reminders']) await enqueueJob(server.database.db, { name, key: name });
  await server.runJobs(['billing-sweep', 'bill-subscription', 'mail-reminders']);
  await server.runJobs(['compose-mail']);
}

async function subscriber(planIdentifier: string, chargePeriod: string) {
  const customerId = await s.customer();
  const method = await stripeCard(s, customerId);
  const res = await s.call('POST', '/subscriptions/create/', { planIdentifier, chargePeriod, customerId });
  expectStatus(res, 201);
  return { email: `${customerId}@example.com`, subscriptionId: res.body.id as string, methodId: method.id as number };
}

/** What arrived for `email` besides receipts, once `count` such messages have, each as its subject and decoded body. */
async function notices(email: string, count: number): Promise<Array<{ subject: string; body: string; raw: string }>> {
  const notReceipt = (m: ReceivedMail) => !subjectOf(m.raw).startsWith('Your receipt');
  for (;;) {
    const found = (await sink.to(email)).filter(notReceipt);
    if (found.length >= count) return found.map((m) => ({ subject: subjectOf(m.raw), body: unquoted(m.raw), raw: m.raw }));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Gives the sends started a moment, then counts what reached `email` besides receipts. */
async function settledCount(email: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  return sink.received.filter((m) => m.to.includes(email) && !subjectOf(m.raw).startsWith('Your receipt')).length;
}

describe('dunning, cancellation and reminder emails sent by SMTP in production', () => {
  it('sends each to its buyer once, at the time it falls due', async () => {
    const yearly = await subscriber(s.plans.basic, 'YEARLY'); // renews 1 June 2035; the Stripe card expires 12/2034
    const trial = await subscriber(s.plans.trial, 'MONTHLY'); // the trial ends 15 June 2034 at 10:00
    const later = await subscriber(s.plans.basic, 'MONTHLY');
    const now = await subscriber(s.plans.basic, 'MONTHLY');
    const unpaid = await subscriber(s.plans.basic, 'MONTHLY');
    expectStatus(await s.call('POST', `/subscriptions/${later.subscriptionId}/cancel/`, { cancellationType: 'CURRENT_PERIOD_ENDS' }), 200);
    expectStatus(await s.call('POST', `/subscriptions/${now.subscriptionId}/cancel/`, { cancellationType: 'IMMEDIATE' }), 200);
    const ref = await server.database.db.selectFrom('payment_methods').select('provider_ref').where('id', '=', unpaid.methodId).executeTakeFirstOrThrow();
    stand.setOutcome(/(pm_[^/]+)$/.exec(ref.provider_ref)![1]!, 'declined');
    await at('2034-06-01T10:00:00Z');

    const [scheduled] = await notices(later.email, 1);
    expect(scheduled!.raw).toMatch(/^From: "Shop & Co" <billing@shop\.example>$/m);
    expect(headerOf(scheduled!.raw, 'Reply-To')).toBe('help@shop.example');
    expect(scheduled!.subject).toBe('Your subscription to Shop & Co ends on 1 July 2034');
    expect(scheduled!.body).toContain(`Changed your mind? You can keep your subscription in the customer portal: https://billing.shop.example/portal/${slug}/`);
    expect(scheduled!.raw).toContain('Content-Type: text/html');
    const [cancelled] = await notices(now.email, 1);
    expect(cancelled!.subject).toBe('Your subscription to Shop & Co has been cancelled');
    expect(cancelled!.body).toMatch(/was cancelled on 1 June 2034, with immediate effect\./);

    // The trial's reminder, three days before it ends: not a minute early, then once however often the sweep runs.
    await at('2034-06-12T09:59:00Z');
    expect(await settledCount(trial.email)).toBe(0);
    await at('2034-06-12T10:01:00Z');
    await at('2034-06-12T10:05:00Z');
    const [ending] = await notices(trial.email, 1);
    expect(ending!.subject).toBe('Your free trial with Shop & Co ends soon');
    expect(ending!.body).toMatch(/ends on 15 June 2034\./);
    expect(ending!.body).toContain('we will charge USD\u00a030.00 to your card ending in 4242.');
    expect(ending!.body).toContain(`If you do not want to continue, cancel before then in the customer portal: https://billing.shop.example/portal/${slug}/`);
    expect(ending!.body).toContain(`<a href="https://billing.shop.example/portal/${slug}/"`);
    expect(await settledCount(trial.email)).toBe(1);
    // Reminders may be unsubscribed from (to the seller's support email); notices of the buyer's money and contract may not.
    expect(headerOf(ending!.raw, 'List-Unsubscribe')).toBe(UNSUBSCRIBE);
    for (const m of [scheduled!, cancelled!]) expect(headerOf(m.raw, 'List-Unsubscribe')).toBe('');

    // A month on: the end that was set, and the declined renewal through dunning to its cancellation.
    await at('2034-07-01T10:01:00Z');
    await at('2034-07-02T10:01:00Z');
    await at('2034-07-04T10:01:00Z');
    const [ended] = await notices(later.email, 2).then((found) => found.slice(1));
    expect(ended!.subject).toBe('Your subscription to Shop & Co has ended');
    const dunning = await notices(unpaid.email, 3);
    expect(dunning.map((m) => m.subject)).toEqual([
      'Your payment to Shop & Co did not go through',
      'Your payment to Shop & Co still did not go through',
      'Your subscription to Shop & Co has been cancelled',
    ]);
    expect(dunning[0]!.body).toContain('We will try again on 2 July 2034.');
    expect(dunning[0]!.body).toMatch(/You can pay the invoice here: https:\/\/billing\.shop\.example\/pay\/pl_[A-Za-z0-9]+\//);
    expect(dunning[0]!.body).toContain(`To pay with another card from now on, sign in to the customer portal: https://billing.shop.example/portal/${slug}/`);
    expect(dunning[1]!.body).toContain('your subscription will be cancelled on 4 July 2034.');
    expect(dunning[2]!.body).toContain('We could not take the payment for your subscription to');
    for (const m of [ended!, ...dunning]) expect(headerOf(m.raw, 'List-Unsubscribe')).toBe('');

    // The card (12/2034) will not last until the yearly renewal: thirty days before it stops working; then the renewal, seven days before.
    // Two workers sweeping at the same moment record it once (the second meets the first's row and queues nothing).
    clock.set(new Date('2034-12-02T00:01:00Z'));
    const sweeps = await Promise.all([new Reminders(server.database.db, clock).sweep(), new Reminders(server.database.db, clock).sweep()]);
    expect(sweeps[0] + sweeps[1]).toBe(1);
    await at('2034-12-02T00:02:00Z');
    const [card] = await notices(yearly.email, 1);
    expect(card!.subject).toBe('Your card on file with Shop & Co needs updating');
    expect(card!.body).toContain('Your card ending in 4242 expires at the end of December 2034.');
    await at('2035-05-25T10:01:00Z');
    const [, renewal] = await notices(yearly.email, 2);
    expect(renewal!.subject).toBe('Your subscription to Shop & Co renews soon');
    expect(renewal!.body).toMatch(/renews on 1 June 2035 for USD\u00a0100\.00\./);
    for (const m of [card!, renewal!]) expect(headerOf(m.raw, 'List-Unsubscribe')).toBe(UNSUBSCRIBE);
    expect(renewal!.body).toContain(`If you do not want it to renew, cancel before then in the customer portal: https://billing.shop.example/portal/${slug}/`);

    // Every sweep ran again at each step: nothing was sent twice.
    await server.runJobs(['compose-mail', 'send-mail']);
    expect(await settledCount(yearly.email)).toBe(2);
    expect(await settledCount(unpaid.email)).toBe(3);
    expect(await settledCount(later.email)).toBe(2);
    expect(await settledCount(now.email)).toBe(1);
    for (const m of sink.received) expect(unquoted(m.raw)).not.toMatch(/YEARLY|MONTHLY|trialing|canceled|CANCELLED_BY|card_declined/);
  });
});
