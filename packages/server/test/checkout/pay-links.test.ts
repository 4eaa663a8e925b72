/**
 * The hosted checkout page paying what is owed (decision 0035), through HTTP and the
 * page's form as a browser without JavaScript sends it: a pending activate_on_payment
 * change (its session made by the update call) and an unpaid renewal invoice (its
 * payment_link). The browser tests are in pay-links.browser.test.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverPayments } from '../../src/job-handlers/recover-payments.js';
import { ManualClock } from '../../src/lib/clock.js';
import { CARDS } from '../commerce-support.js';
import { officialClient } from '../official-client-support.js';
import { chargesOf, expectStatus, pastDueInvoice, premiumPlan, subscriberPaying } from './pay-links-support.js';
import { csrfOf, getPage, openCheckoutWorld, postForm, type CheckoutWorld } from './support.js';

const HOUR = 3_600_000;
const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
let w: CheckoutWorld;

beforeAll(async () => {
  w = await openCheckoutWorld({ clock });
});
afterAll(() => w.server.close());

const call = (method: string, path: string, body?: unknown) => w.s.call(method, path, body);
const db = () => w.server.database.db;
const cardForm = (csrf: string, card: string) => ({ csrf_token: csrf, action: 'pay', card_number: card, expiry: '12 / 35', cvc: '123' });

describe('a pending activate_on_payment change paid on the hosted page', () => {
  it('answers the page with the update, keeps the change waiting on a decline, and activates it with a card that pays', async () => {
    const { customerId, subscriptionId } = await subscriberPaying(w, CARDS.declined);
    const premium = await premiumPlan(w);
    const client = officialClient(w.server, w.org.sandbox.serverKey);
    clock.advance(HOUR);
    const res = await call('POST', `/subscriptions/${subscriptionId}/update/`, {
      planIdentifier: premium.plan,
      chargePeriod: 'MONTHLY',
      paymentBehavior: 'activate_on_payment',
    });
    expectStatus(res, 200);
    const pending = res.body.subscriptionId as string;
    expect(res.body.checkoutSessionId).toMatch(/^cs_[A-Za-z0-9]{48}$/);
    expect(res.body.checkoutUrl).toBe(`${w.server.url}/sandbox/checkout/${res.body.checkoutSessionId}/`);
    expect((await call('GET', `/subscriptions/${pending}/`)).body.status).toBe('incomplete');
    expect(await client.entitlements.getEntitlement({ customerId, featureId: premium.feature })).toBeNull();
    const open = await call('GET', `/checkout/sessions/?search=${customerId}&status=open`);
    expect(open.body.results.map((r: { id: string }) => r.id)).toEqual([res.body.checkoutSessionId]);

    const page = await getPage(res.body.checkoutUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Confirm your plan change');
    expect(page.text).not.toContain('id="email"');
    const charges = await chargesOf(w, customerId);

    const declined = await postForm(res.body.checkoutUrl, cardForm(csrfOf(page.text), CARDS.declined));
    expect(declined.status).toBe(422);
    expect(declined.text).toContain('The card was declined');
    expect((await call('GET', `/subscriptions/${pending}/`)).body.status).toBe('incomplete');
    expect((await call('GET', `/subscriptions/${subscriptionId}/`)).body.status).toBe('active');

    const forged = await postForm(res.body.checkoutUrl, cardForm('forged', CARDS.ok));
    expect(forged.status).toBe(403);
    const paid = await postForm(res.body.checkoutUrl, cardForm(csrfOf(declined.text), CARDS.ok));
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(res.body.checkoutUrl);

    expect((await call('GET', `/subscriptions/${pending}/`)).body).toMatchObject({ status: 'active', plan: { identifier: premium.plan } });
    expect((await call('GET', `/subscriptions/${subscriptionId}/`)).body.status).toBe('superseded');
    expect(await client.entitlements.getEntitlement({ customerId, featureId: premium.feature })).toMatchObject({ hasAccess: true });
    expect(await chargesOf(w, customerId)).toBe(charges + 1);
    const events = await sql<{ type: string }>`SELECT type FROM events WHERE payload -> 'data' -> 'object' ->> 'id' = ${pending} ORDER BY seq`.execute(db());
    expect(events.rows.map((e) => e.type)).toEqual(['subscription.updated', 'subscription.plan_changed', 'subscription.created']);
    const order = await db().selectFrom('orders').select(['total_minor', 'status']).where('subscription_id', '=', pending).execute();
    expect(order).toHaveLength(1);
    expect(order[0]!.status).toBe('COMPLETE');

    // Paid: the page says so; the same form again charges nothing.
    const after = await getPage(res.body.checkoutUrl);
    expect([after.status, after.text.includes('This payment is complete')]).toEqual([200, true]);
    const replay = await postForm(res.body.checkoutUrl, cardForm(csrfOf(declined.text), CARDS.ok));
    expect(replay.status).toBe(200);
    expect(await chargesOf(w, customerId)).toBe(charges + 1);
    const session = await call('GET', `/checkout/sessions/${res.body.checkoutSessionId}/`);
    expect(session.body).toMatchObject({
      status: 'success',
      subscription: { id: pending, status: 'active' },
      order: { status: 'COMPLETE' },
      data: { purpose: 'subscription_change', targetId: pending },
    });
  });

  it('answers no page when the saved card pays at once, and closes the page when the change expires', async () => {
    const paidAtOnce = await subscriberPaying(w, CARDS.ok);
    const at = await call('POST', `/subscriptions/${paidAtOnce.subscriptionId}/update/`, {
      planIdentifier: w.s.plans.pro,
      chargePeriod: 'MONTHLY',
      paymentBehavior: 'activate_on_payment',
    });
    expectStatus(at, 200);
    expect(Object.keys(at.body)).toEqual(['subscriptionId']);

    const { subscriptionId } = await subscriberPaying(w, CARDS.declined);
    const res = await call('POST', `/subscriptions/${subscriptionId}/update/`, {
      planIdentifier: w.s.plans.pro,
      chargePeriod: 'MONTHLY',
      paymentBehavior: 'activate_on_payment',
    });
    const page = await getPage(res.body.checkoutUrl);
    clock.advance(23 * HOUR + 1000);
    await w.server.runJobs(['expire-pending-subscription-update', 'expire-checkout-session']);
    expect((await call('GET', `/subscriptions/${res.body.subscriptionId}/`)).body.status).toBe('incomplete_expired');
    const closed = await getPage(res.body.checkoutUrl);
    expect(closed.status).toBe(410);
    expect(closed.text).toContain('no longer waiting for payment');
    const late = await postForm(res.body.checkoutUrl, cardForm(csrfOf(page.text), CARDS.ok));
    expect(late.status).toBe(410);
    expect((await call('GET', `/subscriptions/${subscriptionId}/`)).body.status).toBe('active');
    expect((await call('GET', `/checkout/sessions/${res.body.checkoutSessionId}/`)).body.status).toBe('expired');
  });

  it('asks for the card authentication on the page; approved, the change is active', async () => {
    const { subscriptionId } = await subscriberPaying(w, CARDS.declined);
    const res = await call('POST', `/subscriptions/${subscriptionId}/update/`, {
      planIdentifier: w.s.plans.pro,
      chargePeriod: 'MONTHLY',
      paymentBehavior: 'activate_on_payment',
    });
    const page = await getPage(res.body.checkoutUrl);
    const step = await postForm(res.body.checkoutUrl, cardForm(csrfOf(page.text), CARDS.authentication));
    expect(step.status).toBe(200);
    expect(step.text).toContain('Confirm your payment');
    expect((await call('GET', `/subscriptions/${res.body.subscriptionId}/`)).body.status).toBe('incomplete');
    const approved = await postForm(res.body.checkoutUrl, { csrf_token: csrfOf(step.text), action: 'authenticate_approve' });
    expect(approved.status).toBe(303);
    expect((await call('GET', `/subscriptions/${res.body.subscriptionId}/`)).body.status).toBe('active');
    expect((await call('GET', `/subscriptions/${subscriptionId}/`)).body.status).toBe('superseded');
    const timeline = await call('GET', `/checkout/sessions/${res.body.checkoutSessionId}/events/`);
    expect(timeline.body.results.map((e: { code: string }) => e.code)).toEqual([
      'checkout_session.payment_succeeded',
      'checkout_session.authentication_answered',
      'checkout_session.payment_attempted',
      'checkout_session.created',
    ]);
  });

  it('reopens the page when the authentication is never answered (the recovery task), and a card then pays the change', async () => {
    const { subscriptionId } = await subscriberPaying(w, CARDS.declined);
    const res = await call('POST', `/subscriptions/${subscriptionId}/update/`, {
      planIdentifier: w.s.plans.pro,
      chargePeriod: 'MONTHLY',
      paymentBehavior: 'activate_on_payment',
    });
    const csrf = csrfOf((await getPage(res.body.checkoutUrl)).text);
    expect((await postForm(res.body.checkoutUrl, cardForm(csrf, CARDS.authentication))).text).toContain('Confirm your payment');
    clock.advance(17 * 60_000);
    await recoverPayments(db(), clock, 60_000, 60_000);
    expect((await call('GET', `/checkout/sessions/${res.body.checkoutSessionId}/`)).body.status).toBe('open');
    expect((await call('GET', `/subscriptions/${res.body.subscriptionId}/`)).body.status).toBe('incomplete');
    expect((await postForm(res.body.checkoutUrl, cardForm(csrf, CARDS.ok))).status).toBe(303);
    expect((await call('GET', `/subscriptions/${res.body.subscriptionId}/`)).body.status).toBe('active');
  });
});

describe('paying a past_due invoice through its payment_link', () => {
  it('gives the unpaid invoice a link (API and webhooks) that opens its page; paid, the subscription is active again', async () => {
    const { customerId, subscriptionId, invoice } = await pastDueInvoice(w);
    expect(invoice.paymentLink).toMatch(new RegExp(`^${w.server.url}/sandbox/pay/pl_[A-Za-z0-9]{40}/$`));
    const token = /\/pay\/(pl_\w+)\/$/.exec(invoice.paymentLink)![1]!;
    const { rows } = await sql<{ type: string; link: string | null }>`
      SELECT type, payload -> 'data' -> 'object' ->> 'payment_link' AS link FROM events
       WHERE payload -> 'data' -> 'object' ->> 'id' = ${invoice.id} ORDER BY seq`.execute(db());
    expect(rows.map((r) => r.type)).toEqual(['invoice.created', 'invoice.payment_failed']);
    for (const row of rows) expect(row.link).toMatch(new RegExp(`/sandbox/pay/${token}/$`));
    // A purchase's invoice is born paid: no link.
    const bornPaid = await call('GET', `/invoices/?customer_id=${customerId}&status=PAID`);
    expect(bornPaid.body.results[0].paymentLink).toBeNull();

    const opened = await getPage(invoice.paymentLink);
    expect(opened.status).toBe(303);
    const sessionUrl = opened.headers.get('location')!;
    expect(sessionUrl).toMatch(/\/sandbox\/checkout\/cs_[A-Za-z0-9]{48}\/$/);
    expect((await getPage(invoice.paymentLink)).headers.get('location')).toBe(sessionUrl);
    const page = await getPage(sessionUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Pay your invoice');
    expect(page.text).toContain(`Invoice ${invoice.number}`);
    expect(page.text).toContain('$10.00');

    const declined = await postForm(sessionUrl, cardForm(csrfOf(page.text), CARDS.declined));
    expect(declined.status).toBe(422);
    expect(declined.text).toContain('The card was declined');
    const failed = (await call('GET', `/invoices/${invoice.id}/`)).body;
    expect(failed).toMatchObject({ status: 'PAYMENT_FAILED', attemptCount: 2 });

    const paid = await postForm(sessionUrl, cardForm(csrfOf(declined.text), CARDS.ok));
    expect(paid.status).toBe(303);
    expect((await call('GET', `/invoices/${invoice.id}/`)).body).toMatchObject({ status: 'PAID', paymentLink: invoice.paymentLink });
    expect((await call('GET', `/subscriptions/${subscriptionId}/`)).body.status).toBe('active');
    const paidEvents = await sql<{ type: string }>`
      SELECT type FROM events WHERE payload -> 'data' -> 'object' ->> 'id' IN (${invoice.id}, ${subscriptionId}) ORDER BY seq`.execute(db());
    expect(paidEvents.rows.map((r) => r.type).slice(-2)).toEqual(['invoice.paid', 'subscription.updated']);
    const paidLink = await sql<{ link: string | null }>`
      SELECT payload -> 'data' -> 'object' ->> 'payment_link' AS link FROM events
       WHERE type = 'invoice.paid' AND payload -> 'data' -> 'object' ->> 'id' = ${invoice.id}`.execute(db());
    expect(paidLink.rows).toEqual([{ link: rows[0]!.link }]);

    // Paid: the link and the page say so, and the form sent again charges nothing.
    const charges = await chargesOf(w, customerId);
    const link = await getPage(invoice.paymentLink);
    expect([link.status, link.text.includes('This payment is complete')]).toEqual([200, true]);
    const replay = await postForm(sessionUrl, cardForm(csrfOf(declined.text), CARDS.ok));
    expect([replay.status, replay.text.includes('This payment is complete')]).toEqual([200, true]);
    expect(await chargesOf(w, customerId)).toBe(charges);
  });

  it('charges once when the form is sent several times at once, and refuses a forged form', async () => {
    const { customerId, invoice } = await pastDueInvoice(w);
    const sessionUrl = (await getPage(invoice.paymentLink)).headers.get('location')!;
    const csrf = csrfOf((await getPage(sessionUrl)).text);
    expect((await postForm(sessionUrl, cardForm('forged', CARDS.ok))).status).toBe(403);
    const charges = await chargesOf(w, customerId);
    const sent = await Promise.all(Array.from({ length: 4 }, () => postForm(sessionUrl, cardForm(csrf, CARDS.ok))));
    for (const res of sent) expect([200, 303, 422]).toContain(res.status);
    expect(sent.some((res) => res.status === 303)).toBe(true);
    expect((await call('GET', `/invoices/${invoice.id}/`)).body.status).toBe('PAID');
    expect(await chargesOf(w, customerId)).toBe(charges + 1);
  });

  it('answers 404 for a link that is unknown, malformed, or of the other environment', async () => {
    const { invoice } = await pastDueInvoice(w);
    const path = new URL(invoice.paymentLink).pathname;
    expect((await getPage(`${w.server.url}${path.replace('/sandbox', '')}`)).status).toBe(404);
    expect((await getPage(`${w.server.url}/sandbox/pay/pl_${'x'.repeat(40)}/`)).status).toBe(404);
    expect((await getPage(`${w.server.url}/sandbox/pay/${encodeURIComponent('<script>')}/`)).status).toBe(404);
    expect((await getPage(`${w.server.url}${path}`)).status).toBe(303);
  });
});
