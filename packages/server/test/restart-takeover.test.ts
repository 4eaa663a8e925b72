/**
 * A process that starts takes over at once the work of a process that was killed
 * (SIGKILL), with the default leases (5 minutes for jobs, 60 s for Idempotency-Keys and
 * payment intents): a test clock's advance leaves `advancing` within seconds, a payment
 * that nobody retries is recorded by the recovery task within seconds, and a keyed retry
 * gets the first request's answer within seconds, never a 409, and a refund nobody retries is
 * recorded within seconds (decision 0051).
 */
import { describe, expect, it } from 'vitest';
import { DATABASE_KIND, type StartedServer } from '../../cli/test/support.js';
import { crashWorkspaces, startWithFailpoints, type Call } from './crash-workspaces.js';

const workspace = crashWorkspaces();

/** The server must die at its failpoint within half a minute. */
async function death(server: StartedServer) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the server did not die at its failpoint:\n${server.stderr()}`)), 30_000);
  });
  try {
    return await Promise.race([server.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function shop(call: Call) {
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const product = await ok('POST', '/catalog/products/', { name: 'Takeover', identifier: 'takeover', taxCode: 'saas' });
  const plan = async (identifier: string, price: Record<string, unknown>, charges: unknown[]) => {
    await ok('POST', '/catalog/plans/', { name: identifier, product: product.id, identifier });
    await ok('POST', `/catalog/plans/${identifier}/prices/bulk/`, { prices: [{ priceType: 'PAID', currency: 'USD', ...price, chargeCatalogPrice: [{ charges }] }] });
    await ok('POST', `/catalog/plans/${identifier}/publish/`, {});
  };
  await plan('monthly', { freeTrial: true, trialPeriod: 14 }, [{ chargePeriod: 'MONTHLY', priceData: { amount: 10 } }]);
  await plan('lifetime', {}, [{ chargePeriod: 'ONE_TIME', priceData: { amount: 49 } }]);
  const clock = await ok('POST', '/test-clocks/', { name: 'killed', frozenTime: '2025-01-10T00:00:00Z' });
  const card = (customerId: string) => ({ customerId, cardNumber: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123' });
  await ok('POST', '/customers/', { customerId: 'clocked', email: 'clocked@example.com', testClockId: clock.id });
  await ok('POST', '/payment-methods/', card('clocked'));
  await ok('POST', '/subscriptions/create/', { planIdentifier: 'monthly', chargePeriod: 'MONTHLY', customerId: 'clocked' });
  for (const customerId of ['ada', 'bob']) {
    await ok('POST', '/customers/', { customerId, email: `${customerId}@example.com` });
    await ok('POST', '/payment-methods/', card(customerId));
  }
  return clock.id as string;
}

const charges = async (call: Call, customerId: string) =>
  (await call('GET', `/transaction/?customer_id=${customerId}`)).body.results.filter((t: { transactionType: string }) => t.transactionType === 'CHARGE').length;

const refunds = async (call: Call, customerId: string) =>
  (await call('GET', `/transaction/?customer_id=${customerId}`)).body.results.filter((t: { transactionType: string; status: string }) => t.transactionType === 'REFUND').length;

describe(`a process started after one was killed, with the default leases, on ${DATABASE_KIND}`, () => {
  it("takes the dead process's clock advance and keyed request over at once", async () => {
    const w = await workspace();

    // A purchase nobody retries, killed once the provider charged it.
    const first = await startWithFailpoints(w, 'payment.after-provider');
    const clockId = await shop(first.call);
    const purchase = { planIdentifier: 'lifetime', chargePeriod: 'ONE_TIME' };
    await expect(first.call('POST', '/charges/', { ...purchase, customerId: 'bob' })).rejects.toThrow();
    expect(await death(first.server)).toEqual({ code: null, signal: 'SIGKILL' });

    // The recovery task records it; then the clock's advance dies in its renewal job, holding the job.
    const second = await startWithFailpoints(w, 'payment.after-intent');
    const recovering = performance.now();
    await expect.poll(() => charges(second.call, 'bob'), { timeout: 60_000, interval: 100 }).toBe(1);
    const recoveredMs = performance.now() - recovering;
    expect((await second.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime: '2025-01-25T00:00:00Z' })).body.status).toBe('advancing');
    expect(await death(second.server)).toEqual({ code: null, signal: 'SIGKILL' });

    // The advance is taken over (its payment recorded already, no new one is made); then a keyed purchase is killed
    // once its payment intent is recorded.
    const third = await startWithFailpoints(w, 'payment.after-intent');
    const restarted = performance.now();
    await expect
      .poll(async () => (await third.call('GET', `/test-clocks/${clockId}/`)).body.status, { timeout: 60_000, interval: 100 })
      .toBe('ready');
    const clockReadyMs = performance.now() - restarted;
    expect(await charges(third.call, 'clocked')).toBe(1);
    const key = { 'idempotency-key': 'killed-purchase' };
    await expect(third.call('POST', '/charges/', { ...purchase, customerId: 'ada' }, key)).rejects.toThrow();
    expect(await death(third.server)).toEqual({ code: null, signal: 'SIGKILL' });

    const fourth = await startWithFailpoints(w, 'refund.after-provider');
    const began = performance.now();
    const retried = await fourth.call('POST', '/charges/', { ...purchase, customerId: 'ada' }, key);
    const retryMs = performance.now() - began;
    expect([retried.status, retried.body.customerId]).toEqual([201, 'ada']);
    expect((await fourth.call('POST', '/charges/', { ...purchase, customerId: 'ada' }, key)).body).toEqual(retried.body);
    expect(await charges(fourth.call, 'ada')).toBe(1);
    expect(await charges(fourth.call, 'bob')).toBe(1);

    // A refund nobody retries, killed once the provider gave the money back: the recovery task records it.
    const [bobs] = (await fourth.call('GET', '/transaction/?customer_id=bob')).body.results;
    await expect(fourth.call('POST', '/refunds/', { orderId: bobs.order.id })).rejects.toThrow();
    expect(await death(fourth.server)).toEqual({ code: null, signal: 'SIGKILL' });
    const fifth = await startWithFailpoints(w, null);
    const refundStarted = performance.now();
    await expect.poll(() => refunds(fifth.call, 'bob'), { timeout: 60_000, interval: 100 }).toBe(1);
    const refundMs = performance.now() - refundStarted;
    // The recovered settlement issued its credit note, once (decision 0065).
    expect((await fifth.call('GET', '/credit-notes/?customer_id=bob')).body.count).toBe(1);

    const took = `test clock ready ${Math.round(clockReadyMs)} ms, payment recovered ${Math.round(recoveredMs)} ms, refund ${Math.round(refundMs)} ms after the restart`;
    console.info(`${DATABASE_KIND}: ${took}; keyed retry answered in ${Math.round(retryMs)} ms`);
    // The leases would have held the work for 5 minutes, 60 s and 60 s.
    expect(clockReadyMs).toBeLessThan(30_000);
    expect(recoveredMs).toBeLessThan(30_000);
    expect(retryMs).toBeLessThan(10_000);
    expect(refundMs).toBeLessThan(30_000);
  }, 600_000);
});
