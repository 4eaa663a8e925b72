/**
 * Every keyed write, killed (SIGKILL) between its effect and the keeping of its answer
 * (failpoint idempotency.before-answer), then retried with its Idempotency-Key on a new
 * process: the retry answers as the first run would have, at once (the dead process's
 * claim is taken over without waiting for its lease), and the effect exists once
 * (decision 0051).
 */
import { describe, expect, it } from 'vitest';
import { DATABASE_KIND } from '../../cli/test/support.js';
import { crashEachInTurn, crashWorkspaces, list, okWith, startWithFailpoints, type Call, type KeyedCase } from './crash-workspaces.js';

const workspace = crashWorkspaces();

const card = (customerId: string) => ({ customerId, cardNumber: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123' });
const monthly = (amount: number) => ({ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount } }] }] });

/** A catalog (a metered feature, two monthly plans, a one-time plan) and the customers each case starts from. */
async function shop(call: Call) {
  const ok = okWith(call);
  const product = await ok('POST', '/catalog/products/', { name: 'Keyed', identifier: 'keyed', taxCode: 'saas' });
  const units = { singular: 'call', plural: 'calls' };
  await ok('POST', '/catalog/features/', { name: 'Calls', identifier: 'calls', featureType: 'METER', featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units } });
  const plan = async (identifier: string, price: unknown) => {
    await ok('POST', '/catalog/plans/', { name: identifier, product: product.id, identifier });
    await ok('POST', `/catalog/plans/${identifier}/features/`, { planEntitlements: [{ feature: 'calls', details: { value: 1000 } }] });
    await ok('POST', `/catalog/plans/${identifier}/prices/bulk/`, { prices: [price] });
    await ok('POST', `/catalog/plans/${identifier}/publish/`, {});
  };
  await plan('basic', monthly(10));
  await plan('pro', monthly(20));
  await plan('lifetime', { priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'ONE_TIME', priceData: { amount: 49 } }] }] });
  const customer = async (customerId: string) => {
    await ok('POST', '/customers/', { customerId, email: `${customerId}@example.com` });
    await ok('POST', '/payment-methods/', card(customerId));
    return customerId;
  };
  const subscribed = async (customerId: string) =>
    (await ok('POST', '/subscriptions/create/', { planIdentifier: 'basic', chargePeriod: 'MONTHLY', customerId: await customer(customerId) })).id as string;
  const changing = await subscribed('changing');
  const cancelling = await subscribed('cancelling');
  await subscribed('metered');
  await customer('subscriber');
  await customer('buyer');
  await customer('shopper');
  const refunded = (await ok('POST', '/charges/', { planIdentifier: 'lifetime', chargePeriod: 'ONE_TIME', customerId: await customer('refunded') })).orderId as string;
  return { changing, cancelling, refunded, owing: await unpaidInvoice(call) };
}

/** A renewal invoice left unpaid (its card declined on a test clock), and a good card to pay it with now. */
async function unpaidInvoice(call: Call): Promise<string> {
  const ok = okWith(call);
  const clock = await ok('POST', '/test-clocks/', { name: 'owing', frozenTime: '2030-01-01T00:00:00Z' });
  await ok('POST', '/customers/', { customerId: 'owing', email: 'owing@example.com', testClockId: clock.id });
  const good = await ok('POST', '/payment-methods/', card('owing'));
  await ok('POST', '/subscriptions/create/', { planIdentifier: 'basic', chargePeriod: 'MONTHLY', customerId: 'owing' });
  const declined = await ok('POST', '/payment-methods/', { ...card('owing'), cardNumber: '4000000000000002' });
  await ok('POST', `/payment-methods/${declined.id}/default/`, {});
  await ok('POST', `/test-clocks/${clock.id}/advance/`, { frozenTime: '2030-02-02T00:00:00Z' });
  await expect.poll(async () => (await call('GET', `/test-clocks/${clock.id}/`)).body.status, { timeout: 60_000, interval: 200 }).toBe('ready');
  const unpaid = (await list(call, '/invoices/?customer_id=owing')).find((i) => i.status !== 'PAID');
  expect(unpaid?.status).toBe('PAYMENT_FAILED');
  await ok('POST', `/payment-methods/${good.id}/default/`, {});
  return unpaid.id as string;
}

const usageOf = async (call: Call, customerId: string) =>
  (await call('GET', `/entitlements?customer_id=${customerId}&feature_id=calls`)).body.entitlements[0].currentUsage as number;

function cases(made: Awaited<ReturnType<typeof shop>>): KeyedCase[] {
  return [
    {
      name: 'customers create',
      path: '/customers/',
      body: { customerId: 'created', email: 'created@example.com' },
      status: 201,
      once: async (call, answer) => {
        expect(answer).toEqual((await call('GET', '/customers/created/')).body);
      },
    },
    {
      name: 'usage report',
      path: '/report/usage/',
      body: { customerId: 'metered', featureId: 'calls', value: 6, behaviour: 'DELTA' },
      status: 200,
      once: async (call, answer) => {
        expect(answer).toMatchObject({ customerId: 'metered', value: 6, behaviour: 'DELTA' });
        expect(await usageOf(call, 'metered')).toBe(6);
      },
    },
    {
      name: 'usage batch',
      path: '/report/usage/batch/',
      body: { reports: [2, 3].map((value) => ({ customerId: 'metered', featureId: 'calls', value, behaviour: 'DELTA', idempotencyKey: `batch-${value}` })) },
      status: 200,
      once: async (call, answer) => {
        expect(answer.results.map((r: { status: string }) => r.status)).toEqual(['accepted', 'accepted']);
        expect(await usageOf(call, 'metered')).toBe(11);
      },
    },
    {
      name: 'charges',
      path: '/charges/',
      body: { planIdentifier: 'lifetime', chargePeriod: 'ONE_TIME', customerId: 'buyer' },
      status: 201,
      once: async (call, answer) => {
        expect((await list(call, '/orders/?customer_id=buyer')).map((o) => o.id)).toEqual([answer.orderId]);
      },
    },
    {
      name: 'subscriptions create',
      path: '/subscriptions/create/',
      body: { planIdentifier: 'basic', chargePeriod: 'MONTHLY', customerId: 'subscriber' },
      status: 201,
      once: async (call, answer) => {
        expect((await list(call, '/subscriptions/?customer_id=subscriber')).map((s) => s.id)).toEqual([answer.id]);
      },
    },
    {
      name: 'subscriptions change',
      path: `/subscriptions/${made.changing}/update/`,
      body: { planIdentifier: 'pro', chargePeriod: 'MONTHLY' },
      status: 200,
      once: async (call, answer) => {
        expect((await call('GET', `/subscriptions/${answer.subscriptionId}/`)).body.plan.identifier).toBe('pro');
        expect(await list(call, '/orders/?customer_id=changing')).toHaveLength(2);
        expect((await list(call, '/credit-notes/?customer_id=changing')).map((n) => [n.reason, n.subscriptionId])).toEqual([['PRORATION', made.changing]]);
      },
    },
    {
      name: 'subscriptions cancel',
      path: `/subscriptions/${made.cancelling}/cancel/`,
      body: { cancellationType: 'IMMEDIATE' },
      status: 200,
      once: async (call, answer) => {
        expect(answer).toEqual({ message: 'Subscription cancellation processed successfully.' });
        expect((await call('GET', `/subscriptions/${made.cancelling}/`)).body.status).toBe('canceled');
      },
    },
    {
      name: 'refunds',
      path: '/refunds/',
      body: { orderId: made.refunded },
      status: 200,
      once: async (call, answer) => {
        const refunds = (await list(call, '/transaction/?customer_id=refunded')).filter((t) => t.transactionType === 'REFUND');
        expect(refunds).toHaveLength(1);
        expect(answer).toMatchObject({ amountUnits: 4900 });
        // Its credit note is written with the settlement: one (decision 0065).
        expect((await list(call, '/credit-notes/?customer_id=refunded')).map((n) => [n.refundId, n.amountTotalUnits])).toEqual([[answer.id, 4900]]);
      },
    },
    {
      name: 'invoices pay',
      path: `/invoices/${made.owing}/pay/`,
      body: {},
      status: 200,
      once: async (call, answer) => {
        expect(answer).toMatchObject({ id: made.owing, status: 'PAID' });
        expect((await list(call, '/invoices/?customer_id=owing')).map((i) => i.status)).toEqual(['PAID', 'PAID']);
      },
    },
    {
      name: 'checkout',
      path: '/checkout/',
      body: { planIdentifier: 'basic', chargePeriod: 'MONTHLY', customerId: 'shopper', successUrl: 'https://shop.example/thanks' },
      status: 201,
      once: async (call, answer) => {
        expect((await call('GET', `/checkout/sessions/${answer.checkoutSessionId}/`)).status).toBe(200);
      },
    },
  ];
}

describe(`keyed writes killed between their effect and their answer on ${DATABASE_KIND}`, () => {
  it('each retry answers as the first run would have, at once, and the effect exists once', async () => {
    const w = await workspace();
    const setup = await startWithFailpoints(w, null);
    const made = await shop(setup.call);
    await setup.server.stop();

    await crashEachInTurn(w, cases(made));
  }, 1_200_000);
});
