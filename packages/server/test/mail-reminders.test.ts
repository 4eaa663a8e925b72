/**
 * Timed reminders and dunning emails (issue 28, item 1; decisions 0070, 0071), in the sandbox,
 * driven by test clocks through the API: a year of a yearly plan with a trial, a card that
 * expires during the year and a renewal that fails through dunning to cancellation. Each
 * timed email arrives once, at its simulated instant (and not before it); the switches and
 * the days of an environment are respected; a buyer without an email gets nothing.
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, shop, type Shop } from './commerce-support.js';
import { uniqueId, type TestServer } from './harness.js';
import { startIsolatedServer } from './isolated-server.js';

interface InboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  occurredOn: string | null;
}

const logLines: string[] = [];
let server: TestServer;

beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
  // A database of its own on PostgreSQL: another file's server running compose-mail would write these emails while this one looks.
  server = await startIsolatedServer('mailrem', { env: { BILLOW_DUNNING_RETRY_DAYS: '1,3' }, logger: logger as unknown as FastifyBaseLogger });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

function expectStatus(res: { status: number; text: string }, status: number) {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

/** A seller of its own (its own inbox and settings), named and with a support address. */
async function seller(): Promise<Shop> {
  const org = await server.createOrg();
  const s = await shop(server, org.sandbox.serverKey);
  expectStatus(await s.call('PATCH', '/seller-profile/', { displayName: 'Acme', supportEmail: 'help@acme.example' }), 200);
  return s;
}

async function testClock(s: Shop, frozenTime: string): Promise<string> {
  const res = await s.call('POST', '/test-clocks/', { name: uniqueId('clock'), frozenTime });
  expectStatus(res, 201);
  return res.body.id as string;
}

/** Advances the clock, runs its job as a worker would until it is ready, then the jobs that write emails. */
async function advance(s: Shop, clockId: string, frozenTime: string): Promise<void> {
  expectStatus(await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime }), 200);
  let clock = await s.call('GET', `/test-clocks/${clockId}/`);
  for (let tries = 0; clock.body.status === 'advancing' && tries < 300; tries++) {
    if ((await server.runJobs()) === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    clock = await s.call('GET', `/test-clocks/${clockId}/`);
  }
  expect(clock.body).toMatchObject({ status: 'ready', failure: null });
  await server.runJobs(['compose-mail']);
}

/** The messages to `email`, in the order of what they tell (jobs may write two of one advance in either order). */
async function mailsTo(s: Shop, email: string): Promise<InboxMessage[]> {
  const res = await s.call('GET', '/mail/inbox/');
  expectStatus(res, 200);
  const mine = (res.body.messages as InboxMessage[]).filter((m) => m.to === email).reverse();
  return mine.sort((a, b) => (a.occurredOn ?? '').localeCompare(b.occurredOn ?? ''));
}

const subjects = (mails: InboxMessage[]) => mails.map((m) => m.subject);
const NO_WIRE_WORDS = /YEARLY|MONTHLY|trialing|past_due|canceled|CANCELLED_BY|PAYMENT_FAILED|payment_failed|card_declined/;

async function yearlyPlanWithTrial(s: Shop): Promise<string> {
  const plan = await s.api.plan(s.product.id, { name: uniqueId('Annual') });
  await s.api.prices(plan.identifier, [
    { priceType: 'PAID', currency: 'USD', freeTrial: true, trialPeriod: 14, chargeCatalogPrice: [{ charges: [{ chargePeriod: 'YEARLY', priceData: { amount: 120 } }] }] },
  ]);
  await s.api.publish(plan.identifier);
  return plan.identifier as string;
}

async function cardOf(s: Shop, customerId: string, cardNumber: string, expMonth: number, expYear: number) {
  const res = await s.call('POST', '/payment-methods/', { customerId, cardNumber, expMonth, expYear, cvc: '123' });
  expectStatus(res, 201);
  return res.body as { id: number };
}

describe('a year of a yearly plan with a trial, on a test clock', () => {
  it('sends each timed email once, at its simulated instant, and dunning to cancellation', async () => {
    const s = await seller();
    const planIdentifier = await yearlyPlanWithTrial(s);
    const clockId = await testClock(s, '2027-01-01T09:00:00Z');
    const customerId = await s.customer({ testClockId: clockId });
    const email = `${customerId}@example.com`;
    await cardOf(s, customerId, CARDS.ok, 6, 2027); // expires during the year
    const created = await s.call('POST', '/subscriptions/create/', { planIdentifier, chargePeriod: 'YEARLY', customerId });
    expectStatus(created, 201);
    expect(created.body.status).toBe('trialing');
    const timed = async () => (await mailsTo(s, email)).filter((m) => !m.subject.startsWith('Your receipt'));

    // The trial ends on 15 January at 09:00: three days before, and not a minute earlier.
    await advance(s, clockId, '2027-01-12T08:59:00Z');
    expect(await timed()).toEqual([]);
    await advance(s, clockId, '2027-01-12T09:01:00Z');
    const [trial] = await timed();
    expect(trial).toMatchObject({ subject: 'Your free trial with Acme ends soon', occurredOn: '2027-01-12T09:00:00.000Z' });
    expect(trial!.text).toMatch(/Your free trial of .+ \(Annual-.+\) ends on 15 January 2027\./);
    expect(trial!.text).toContain('we will charge USD\u00a0120.00 to your card ending in 4242.');
    // No BILLOW_PUBLIC_URL here: no portal link, so the seller's address says how to cancel.
    expect(trial!.text).toContain('If you do not want to continue, write to help@acme.example before then.');

    // The card stops working on 1 July, before the renewal of 15 January 2028: thirty days before it does.
    await advance(s, clockId, '2027-05-31T23:59:00Z');
    expect(subjects(await timed())).toEqual(['Your free trial with Acme ends soon']);
    await advance(s, clockId, '2027-06-01T00:01:00Z');
    const card = (await timed())[1]!;
    expect(card).toMatchObject({ subject: 'Your card on file with Acme needs updating', occurredOn: '2027-06-01T00:00:00.000Z' });
    expect(card.text).toContain('Your card ending in 4242 expires at the end of June 2027.');
    expect(card.text).toMatch(/Your next payment for .+ is due on 15 January 2028, when the card will no longer work\./);

    // The buyer replaces the card with one the bank will decline.
    await advance(s, clockId, '2027-08-01T00:00:00Z');
    const declined = await cardOf(s, customerId, CARDS.declined, 12, 2035);
    expectStatus(await s.call('POST', `/payment-methods/${declined.id}/default/`), 200);

    // The yearly renewal is announced seven days before, with the amount and the card.
    await advance(s, clockId, '2028-01-08T08:59:00Z');
    expect(await timed()).toHaveLength(2);
    await advance(s, clockId, '2028-01-08T09:01:00Z');
    const renewal = (await timed())[2]!;
    expect(renewal).toMatchObject({ subject: 'Your subscription to Acme renews soon', occurredOn: '2028-01-08T09:00:00.000Z' });
    expect(renewal.text).toMatch(/renews on 15 January 2028 for USD\u00a0120\.00\./);
    expect(renewal.text).toContain('We will charge your card ending in 0002.');
    expect(renewal.text).toContain('If you do not want it to renew, write to help@acme.example before then.');

    // The renewal is declined; retried a day later, then on the third day (BILLOW_DUNNING_RETRY_DAYS=1,3), the last try.
    await advance(s, clockId, '2028-01-20T00:00:00Z');
    const dunning = (await timed()).slice(3);
    expect(dunning.map((m) => [m.subject, m.occurredOn])).toEqual([
      ['Your payment to Acme did not go through', '2028-01-15T09:00:00.000Z'],
      ['Your payment to Acme still did not go through', '2028-01-16T09:00:00.000Z'],
      ['Your subscription to Acme has been cancelled', '2028-01-18T09:00:00.000Z'],
    ]);
    const [failed, retried, cancelled] = dunning as [InboxMessage, InboxMessage, InboxMessage];
    expect(failed.text).toContain('Your payment of USD\u00a0120.00 for');
    expect(failed.text).toContain('We will try again on 16 January 2028.');
    expect(failed.text).not.toContain('final notice');
    expect(failed.text).toContain('The link works until 14 February 2028.');
    expect(retried.text).toContain('We tried again to take your payment of USD\u00a0120.00');
    expect(retried.text).toContain('We will try again on 18 January 2028.');
    expect(retried.text).toContain('This is your final notice: that will be our last try. If the payment does not go through then, your subscription will be cancelled on 18 January 2028.');
    expect(retried.text).toContain('The link works until 15 February 2028.');
    expect(cancelled.text).toMatch(/We could not take the payment for your subscription to .+, so it has been cancelled\./);
    expect(cancelled.text).toContain('Your access has ended');
    for (const m of await mailsTo(s, email)) expect(m.text).not.toMatch(NO_WIRE_WORDS);

    // The link in the emails works for thirty days after the last failure (18 January, 09:00), then says it expired.
    const invoices = await s.call('GET', `/invoices/?customer_id=${customerId}&status=PAYMENT_FAILED`);
    const link = (invoices.body.results[0] as { paymentLink: string }).paymentLink;
    const path = new URL(link).pathname;
    expect(retried.text).toContain(`You can pay the invoice here: http://localhost:4000${path}`);
    await advance(s, clockId, '2028-02-17T08:00:00Z');
    expect((await fetch(`${server.url}${path}`, { redirect: 'manual' })).status).toBe(303);
    await advance(s, clockId, '2028-02-17T10:00:00Z');
    const expired = await fetch(`${server.url}${path}`, { redirect: 'manual' });
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This payment link has expired');
    // Neither the request log nor the jobs' log ever shows the link's token.
    const token = path.split('/').filter(Boolean).pop()!;
    expect(logLines.join('\n')).not.toContain(token.slice(7));

    // A year on, the ended subscription is reminded of nothing more; each email came once.
    await advance(s, clockId, '2029-01-20T00:00:00Z');
    expect(subjects(await timed())).toEqual([
      'Your free trial with Acme ends soon',
      'Your card on file with Acme needs updating',
      'Your subscription to Acme renews soon',
      'Your payment to Acme did not go through',
      'Your payment to Acme still did not go through',
      'Your subscription to Acme has been cancelled',
    ]);
  });
});

describe('the settings of an environment', () => {
  it('sends reminders its days before, and no kind that is switched off', async () => {
    const s = await seller();
    const set = await s.call('PATCH', '/email-settings/', { trialEndingDays: 5, upcomingRenewal: false, cardExpiringDays: 10 });
    expectStatus(set, 200);
    expect(set.body).toMatchObject({ trialEndingDays: 5, upcomingRenewal: false, upcomingRenewalDays: 7, cardExpiring: true, cardExpiringDays: 10 });
    const clockId = await testClock(s, '2027-03-01T00:00:00Z');
    const trialing = await s.customer({ testClockId: clockId });
    await cardOf(s, trialing, CARDS.ok, 12, 2035);
    expectStatus(await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.trial, chargePeriod: 'MONTHLY', customerId: trialing }), 201);
    const yearly = await s.customer({ testClockId: clockId });
    await cardOf(s, yearly, CARDS.ok, 9, 2027);
    expectStatus(await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'YEARLY', customerId: yearly }), 201);

    await advance(s, clockId, '2028-03-02T00:00:00Z');
    const trialMails = (await mailsTo(s, `${trialing}@example.com`)).filter((m) => !m.subject.startsWith('Your receipt'));
    // The trial (14 days) ends on 15 March: five days before.
    expect(trialMails.map((m) => [m.subject, m.occurredOn])).toEqual([['Your free trial with Acme ends soon', '2027-03-10T00:00:00.000Z']]);
    const yearlyMails = (await mailsTo(s, `${yearly}@example.com`)).filter((m) => !m.subject.startsWith('Your receipt'));
    // No renewal reminder (switched off); the card (September 2027) is warned of ten days before it stops working, and
    // again for the next renewal once the sandbox renewed on it (a real bank would have declined it): once per renewal.
    expect(yearlyMails.map((m) => [m.subject, m.occurredOn])).toEqual([
      ['Your card on file with Acme needs updating', '2027-09-21T00:00:00.000Z'],
      ['Your card on file with Acme needs updating', '2028-03-01T00:00:00.000Z'],
    ]);
    expect(yearlyMails[0]!.text).toContain('Your card ending in 4242 expires at the end of September 2027.');
    expect(yearlyMails[1]!.text).toContain('Your card ending in 4242 expired at the end of September 2027.');
    expect(yearlyMails[1]!.text).toMatch(/is due on 1 March 2029/);
  });

  it('a reminder of a buyer without an email writes nothing, and its job succeeds', async () => {
    const s = await seller();
    const clockId = await testClock(s, '2027-03-01T00:00:00Z');
    const customerId = await s.customer({ testClockId: clockId, email: undefined });
    await cardOf(s, customerId, CARDS.ok, 12, 2035);
    expectStatus(await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.trial, chargePeriod: 'MONTHLY', customerId }), 201);
    await advance(s, clockId, '2027-03-13T00:00:00Z');
    const reminder = await server.database.db
      .selectFrom('mail_reminders as r')
      .innerJoin('subscriptions as sub', 'sub.id', 'r.subscription_id')
      .innerJoin('customers as c', 'c.id', 'sub.customer_id')
      .select(['r.id', 'r.kind'])
      .where('c.customer_id', '=', customerId)
      .executeTakeFirstOrThrow();
    expect(reminder.kind).toBe('trial_ending');
    const jobs = await server.database.db.selectFrom('jobs').select('state').where('unique_key', '=', `reminder:${reminder.id}`).execute();
    expect(jobs).toEqual([{ state: 'succeeded' }]);
    expect((await s.call('GET', '/mail/inbox/')).body.messages).toEqual([]);
  });

  it('refuses days out of range, or not whole, with a 400 that says which and changes nothing', async () => {
    const s = await seller();
    const before = (await s.call('GET', '/email-settings/')).body;
    for (const [body, field] of [
      [{ trialEndingDays: 0 }, 'trialEndingDays'],
      [{ trialEndingDays: 31 }, 'trialEndingDays'],
      [{ upcomingRenewalDays: 91 }, 'upcomingRenewalDays'],
      [{ cardExpiringDays: 2.5 }, 'cardExpiringDays'],
      [{ cardExpiringDays: 'ten' }, 'cardExpiringDays'],
      [{ trialEnding: 'off' }, 'trialEnding'],
    ] as const) {
      const res = await s.call('PATCH', '/email-settings/', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toContain(field);
    }
    expect((await s.call('GET', '/email-settings/')).body).toEqual(before);
  });
});

describe('cancellations', () => {
  it('a cancellation at period end says when the subscription ends, and the end then says it ended', async () => {
    const s = await seller();
    const clockId = await testClock(s, '2027-03-01T12:00:00Z');
    const customerId = await s.customer({ testClockId: clockId });
    await cardOf(s, customerId, CARDS.ok, 12, 2035);
    const created = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
    expectStatus(created, 201);
    expectStatus(await s.call('POST', `/subscriptions/${created.body.id}/cancel/`, { cancellationType: 'CURRENT_PERIOD_ENDS' }), 200);
    await server.runJobs(['compose-mail']);
    const email = `${customerId}@example.com`;
    const [scheduled] = (await mailsTo(s, email)).filter((m) => !m.subject.startsWith('Your receipt'));
    expect(scheduled).toMatchObject({ subject: 'Your subscription to Acme ends on 1 April 2027', occurredOn: '2027-03-01T12:00:00.000Z' });
    expect(scheduled!.text).toMatch(/Your subscription to .+ \(Basic-.+\) has been cancelled and will end on 1 April 2027\./);
    expect(scheduled!.text).toContain('You keep your access until then, and it will not renew.');

    await advance(s, clockId, '2027-04-02T00:00:00Z');
    const mails = (await mailsTo(s, email)).filter((m) => !m.subject.startsWith('Your receipt'));
    expect(mails.map((m) => [m.subject, m.occurredOn])).toEqual([
      ['Your subscription to Acme ends on 1 April 2027', '2027-03-01T12:00:00.000Z'],
      ['Your subscription to Acme has ended', '2027-04-01T12:00:00.000Z'],
    ]);
    for (const m of mails) expect(m.text).not.toMatch(NO_WIRE_WORDS);
  });

  it('each new kind can be switched off', async () => {
    const s = await seller();
    const off = { subscriptionCancelled: false, cancellationScheduled: false, paymentFailed: false, paymentRetryFailed: false, cancelledUnpaid: false, trialEnding: false, cardExpiring: false };
    expectStatus(await s.call('PATCH', '/email-settings/', off), 200);
    const clockId = await testClock(s, '2027-03-01T00:00:00Z');
    const buyer = async (planIdentifier: string, chargePeriod: string, card: [string, number, number]) => {
      const customerId = await s.customer({ testClockId: clockId });
      await cardOf(s, customerId, ...card);
      const res = await s.call('POST', '/subscriptions/create/', { planIdentifier, chargePeriod, customerId });
      expectStatus(res, 201);
      return { customerId, subscriptionId: res.body.id as string };
    };
    const ok: [string, number, number] = [CARDS.ok, 12, 2035];
    const trialing = await buyer(s.plans.trial, 'MONTHLY', ok);
    const later = await buyer(s.plans.basic, 'MONTHLY', ok);
    expectStatus(await s.call('POST', `/subscriptions/${later.subscriptionId}/cancel/`, { cancellationType: 'CURRENT_PERIOD_ENDS' }), 200);
    const now = await buyer(s.plans.basic, 'MONTHLY', ok);
    expectStatus(await s.call('POST', `/subscriptions/${now.subscriptionId}/cancel/`, { cancellationType: 'IMMEDIATE' }), 200);
    const unpaid = await buyer(s.plans.basic, 'MONTHLY', ok);
    const declined = await cardOf(s, unpaid.customerId, CARDS.declined, 12, 2035);
    expectStatus(await s.call('POST', `/payment-methods/${declined.id}/default/`), 200);
    const expiring = await buyer(s.plans.basic, 'YEARLY', [CARDS.ok, 6, 2027]);

    await advance(s, clockId, '2027-07-01T00:00:00Z');
    const mails: InboxMessage[] = [];
    for (const { customerId } of [trialing, later, now, unpaid, expiring]) mails.push(...(await mailsTo(s, `${customerId}@example.com`)));
    // Receipts are on, and so is the email of an end that was set (subscriptionEnded); nothing else was written.
    expect(mails.map((m) => m.subject).filter((subject) => !subject.startsWith('Your receipt'))).toEqual(['Your subscription to Acme has ended']);
    expect((await s.call('GET', `/subscriptions/${unpaid.subscriptionId}/`)).body.status).toBe('canceled');
  });
});
