import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shop } from './commerce-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';

/**
 * Production without a payment provider configured (Stripe: stripe-payments.test.ts):
 * every purchase that would take money answers 428 before anything else is asked of the
 * buyer (a test card cannot even be saved there), and free purchases still go through.
 */
let server: TestServer;
let org: TestOrg;
let p: Awaited<ReturnType<typeof shop>>;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  p = await shop(server, org.production.serverKey, '');
});
afterAll(() => server.close());

function expectProviderRequired(res: { status: number; body: any }): void {
  expect(res.status).toBe(428);
  expect(res.body.code).toBe('payment_provider_required');
  expect(res.body.detail).toMatch(/payment provider/);
  expect(res.body.detail).toMatch(/sandbox/);
}

async function countOf(table: 'orders' | 'subscriptions', customerId: string): Promise<number> {
  const db = server.database.db;
  const customer = await db.selectFrom('customers').select('id').where('customer_id', '=', customerId).executeTakeFirstOrThrow();
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('customer_id', '=', customer.id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('production purchases without a payment provider', () => {
  it('POST /charges/ answers 428, not 400 payment_method_required, and records nothing', async () => {
    const customerId = await p.customer();
    const res = await p.call('POST', '/charges/', { planIdentifier: p.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    expectProviderRequired(res);
    expect(await countOf('orders', customerId)).toBe(0);
    expect(await countOf('subscriptions', customerId)).toBe(0);
  });

  it.each([
    ['a paid plan', 'basic'],
    ['a plan with a free trial', 'trial'],
    ['a plan with a priced meter', 'seats'],
  ] as const)('POST /subscriptions/create/ on %s answers 428 and records nothing', async (_label, plan) => {
    const customerId = await p.customer();
    const res = await p.call('POST', '/subscriptions/create/', { planIdentifier: p.plans[plan], chargePeriod: 'MONTHLY', customerId });
    expectProviderRequired(res);
    expect(await countOf('subscriptions', customerId)).toBe(0);
  });

  it('a free plan is still taken, and changing it to a paid plan answers 428 and leaves it as it was', async () => {
    const customerId = await p.customer();
    const created = await p.call('POST', '/subscriptions/create/', { planIdentifier: p.plans.free, chargePeriod: 'MONTHLY', customerId });
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    for (const paymentBehavior of [undefined, 'activate_on_payment']) {
      for (const probationBehaviour of ['IMMEDIATE_CHARGE', 'NEXT_BILLING_CYCLE']) {
        const res = await p.call('POST', `/subscriptions/${id}/update/`, {
          planIdentifier: p.plans.pro,
          chargePeriod: 'MONTHLY',
          probationBehaviour,
          ...(paymentBehavior ? { paymentBehavior } : {}),
        });
        expectProviderRequired(res);
      }
    }
    const after = await p.call('GET', `/subscriptions/${id}/`);
    expect(after.status).toBe(200);
    expect(after.body.status).toBe('active');
    expect(after.body.plan.identifier).toBe(p.plans.free);
    expect(await countOf('orders', customerId)).toBe(1);
  });

  it.each([
    ['a paid plan', { planIdentifier: 'basic', chargePeriod: 'MONTHLY' }],
    ['a plan with a free trial', { planIdentifier: 'trial', chargePeriod: 'MONTHLY' }],
    ['a one-time purchase', { planIdentifier: 'lifetime', chargePeriod: 'ONE_TIME' }],
    ['a custom amount', { planIdentifier: 'basic', chargePeriod: 'MONTHLY', customAmount: 49.9, currencyCode: 'USD', taxBehavior: 'EXCLUSIVE' }],
  ] as const)('POST /checkout/ for %s answers 428 and makes no session (issue 24, item 9)', async (_label, body) => {
    const customerId = await p.customer();
    const res = await p.call('POST', '/checkout/', {
      ...body,
      planIdentifier: p.plans[body.planIdentifier],
      customerId,
      successUrl: 'https://shop.example/ok',
    });
    expectProviderRequired(res);
    const sessions = await server.database.db.selectFrom('checkout_sessions').select('id').where('customer_ref', '=', customerId).execute();
    expect(sessions).toEqual([]);
  });

  it('a buy link for a paid plan says the same on its page, and a free plan still gets its checkout', async () => {
    const link = await server.request('GET', `/buy/${p.product.id}/?plan_identifier=${p.plans.basic}&charge_period=MONTHLY`, { key: null });
    expect(link.status).toBe(428);
    expect(link.text).toContain('Payments are not available yet');
    expect(link.text).toMatch(/payment provider/);
    const free = await p.call('POST', '/checkout/', { planIdentifier: p.plans.free, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/ok' });
    expect(free.status, free.text).toBe(201);
  });

  it('a payment method cannot be saved in production either (403 sandbox_only), and the answer says to configure a provider first', async () => {
    const customerId = await p.customer();
    const res = await p.call('POST', '/payment-methods/', { customerId, cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2035, cvc: '123' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('sandbox_only');
    // Not "use the checkout or the portal": without a provider they refuse cards too. It says what works.
    expect(res.body.detail).toMatch(/no payment provider configured/);
    expect(res.body.detail).toMatch(/configure one first with `billow provider set` or PUT \/api\/v1\/payment-provider\//);
  });

  it('the same purchases in sandbox ask for a payment method instead (400 payment_method_required)', async () => {
    const s = await shop(server, org.sandbox.serverKey, '/sandbox');
    const customerId = await s.customer();
    const charge = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    expect(charge.status).toBe(400);
    expect(charge.body.code).toBe('payment_method_required');
    const subscription = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
    expect(subscription.status).toBe(400);
    expect(subscription.body.code).toBe('payment_method_required');
  });
});
