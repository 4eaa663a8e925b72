/**
 * The server process is killed (SIGKILL) between the phases of a payment
 * (decision 0026), then started again on the same database: a retry with the same
 * Idempotency-Key, or the recovery task alone, ends with exactly one order and one
 * charge, and the retry gets the first answer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DATABASE_KIND,
  api,
  assertBuilt,
  killServers,
  makeWorkspace,
  migratedTemplate,
  printedCredentials,
  startServer,
  type ServerExit,
  type StartedServer,
  type Workspace,
} from '../../cli/test/support.js';
import { connectDatabase } from '../src/db/connect.js';

let template: Workspace | null;
const workspaces: Workspace[] = [];
beforeAll(async () => {
  assertBuilt();
  template = await migratedTemplate();
});
afterAll(() => template?.cleanup());
afterEach(async () => {
  await killServers();
  await Promise.all(workspaces.splice(0).map((w) => w.cleanup()));
});

async function start(w: Workspace, env: Record<string, string> = {}): Promise<{ server: StartedServer; key: string; call: Call }> {
  const server = await startServer({ ...w, env: { ...w.env, ...env } });
  const key = printedCredentials(server.stdout()).sandbox.serverKey;
  const call: Call = (method, path, body, headers) => api(`${server.sandboxUrl}/api/v1${path}`, method, { key, body, headers });
  return { server, key, call };
}

type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;

/** A plan to sell, a customer and a card, through the API. */
async function shopWith(call: Call): Promise<{ plan: string; customerId: string }> {
  const ok = async (method: string, path: string, body: unknown) => {
    const res = await call(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const product = await ok('POST', '/catalog/products/', { name: 'Crash-proof', identifier: 'crash-proof', taxCode: 'saas' });
  await ok('POST', '/catalog/plans/', { name: 'Lifetime', product: product.id, identifier: 'lifetime' });
  const charges = [{ chargePeriod: 'ONE_TIME', priceData: { amount: 49 } }];
  await ok('POST', '/catalog/plans/lifetime/prices/bulk/', { prices: [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges }] }] });
  await ok('POST', '/catalog/plans/lifetime/publish/', {});
  await ok('POST', '/customers/', { customerId: 'ada', email: 'ada@example.com' });
  await ok('POST', '/payment-methods/', { customerId: 'ada', cardNumber: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123' });
  return { plan: 'lifetime', customerId: 'ada' };
}

async function workspace(): Promise<Workspace> {
  const w = await makeWorkspace({ emptyDatabase: true, copyOf: template });
  workspaces.push(w);
  return w;
}

async function ledgerOf(call: Call, customerId: string) {
  const [orders, transactions] = await Promise.all([
    call('GET', `/orders/?customer_id=${customerId}`),
    call('GET', `/transaction/?customer_id=${customerId}`),
  ]);
  return {
    orders: orders.body.results.map((o: { id: string }) => o.id) as string[],
    charges: transactions.body.results.filter((t: { transactionType: string }) => t.transactionType === 'CHARGE').length as number,
  };
}

describe(`a server killed mid-payment on ${DATABASE_KIND}`, () => {
  it('at each phase, then restarted: one order per purchase, retries get the first answer, the recovery task settles the rest', async () => {
    const w = await workspace();
    // A killed process may hold the recovery job itself: on PostgreSQL it runs again once its lease ends.
    const short = { BILLOW_IDEMPOTENCY_LEASE_MS: '100', BILLOW_PAYMENT_RECOVERY_AFTER_MS: '200', BILLOW_JOB_LEASE_MS: '1000' };
    const first = await start(w, { ...short, BILLOW_FAILPOINTS: 'payment.after-intent' });
    const { plan, customerId } = await shopWith(first.call);
    const purchase = { planIdentifier: plan, chargePeriod: 'ONE_TIME', customerId };
    const idempotency = { 'idempotency-key': 'crash-1' };

    // Killed after recording the intent, before asking the provider.
    await expect(first.call('POST', '/charges/', purchase, idempotency)).rejects.toThrow();
    expect(await first.server.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // The retry takes the key over (the dead request's lease is short here) and completes the payment,
    // in a process killed after settling it, before it answers.
    const second = await start(w, { ...short, BILLOW_FAILPOINTS: 'payment.after-settle' });
    await expect(second.call('POST', '/charges/', purchase, idempotency)).rejects.toThrow();
    expect(await second.server.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // The next retry gets the answer kept with the payment; a new purchase is killed after the provider charged.
    const third = await start(w, { ...short, BILLOW_FAILPOINTS: 'payment.after-provider' });
    const answered = await third.call('POST', '/charges/', purchase, idempotency);
    expect(answered.status).toBe(201);
    expect(await ledgerOf(third.call, customerId)).toEqual({ orders: [answered.body.orderId], charges: 1 });
    await expect(third.call('POST', '/charges/', purchase)).rejects.toThrow();
    expect(await third.server.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // Nobody retries that one: the recovery task records it, once.
    const fourth = await start(w, short);
    await expect.poll(async () => (await ledgerOf(fourth.call, customerId)).charges, { timeout: 15_000, interval: 100 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ledger = await ledgerOf(fourth.call, customerId);
    expect(ledger.orders).toHaveLength(2);
    expect(ledger.charges).toBe(2);
    expect((await fourth.call('POST', '/charges/', purchase, idempotency)).body).toEqual(answered.body);
  });
});

/** How the process ended, once it has: it must die (at its failpoint) within half a minute. */
async function death(server: StartedServer): Promise<ServerExit> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the server did not die at its failpoint within 30 s:\n${server.stderr()}`)), 30_000);
  });
  try {
    return await Promise.race([server.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A start of a process whose job runner dies at its failpoint, before or after it prints its summary. */
async function startToDie(w: Workspace, env: Record<string, string>): Promise<void> {
  let server: StartedServer;
  try {
    server = await startServer({ ...w, env: { ...w.env, ...env } });
  } catch (error) {
    expect(String(error)).toMatch(/exited \(SIGKILL\) before it was ready/);
    return;
  }
  expect(await death(server)).toEqual({ code: null, signal: 'SIGKILL' });
}

/** The database of a workspace whose server has stopped, for what the API does not show (payment intents). */
async function openStopped(w: Workspace) {
  return connectDatabase({ databaseUrl: w.env.DATABASE_URL ?? null, dataDir: w.env.DATABASE_URL ? null : w.dataDir, poolSize: 1 });
}

describe(`a renewal run killed (SIGKILL) on ${DATABASE_KIND}`, () => {
  it('at each phase of a payment, then restarted: every subscription renewed once a period, the clock ready, no payment left processing', async () => {
    const w = await workspace();
    // A short lease: on PostgreSQL the dead process's advance job runs again once it ends (PGlite releases it at start).
    // The clock is in the past, so its payments look stale to the recovery task at once: it races the advance job.
    const short = { BILLOW_JOB_LEASE_MS: '1000', BILLOW_JOB_POLL_INTERVAL_MS: '50', BILLOW_PAYMENT_RECOVERY_AFTER_MS: '200' };
    // Trials: nothing is paid before the clock moves, so the first process already has its failpoint armed.
    const first = await start(w, { ...short, BILLOW_FAILPOINTS: 'payment.after-intent' });
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await first.call(method, path, body);
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const product = await ok('POST', '/catalog/products/', { name: 'Renewing', identifier: 'renewing', taxCode: 'saas' });
    await ok('POST', '/catalog/plans/', { name: 'Monthly', product: product.id, identifier: 'monthly' });
    const charges = [{ chargePeriod: 'MONTHLY', priceData: { amount: 10 } }];
    const price = { priceType: 'PAID', currency: 'USD', freeTrial: true, trialPeriod: 14, chargeCatalogPrice: [{ charges }] };
    await ok('POST', '/catalog/plans/monthly/prices/bulk/', { prices: [price] });
    await ok('POST', '/catalog/plans/monthly/publish/', {});
    const clock = await ok('POST', '/test-clocks/', { name: 'kill -9', frozenTime: '2025-01-10T00:00:00Z' });
    const subscriptions: { customerId: string; id: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const customerId = `renewing-${i}`;
      await ok('POST', '/customers/', { customerId, email: `${customerId}@example.com`, testClockId: clock.id });
      await ok('POST', '/payment-methods/', { customerId, cardNumber: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123' });
      const created = await ok('POST', '/subscriptions/create/', { planIdentifier: 'monthly', chargePeriod: 'MONTHLY', customerId });
      expect(created.status).toBe('trialing');
      subscriptions.push({ customerId, id: created.id });
    }

    // Past the trials' end (2025-01-24) and the first renewal (2025-02-24). The advance's job dies having recorded
    // the first intent; the next process, completing that payment, dies after the provider charged; the next after
    // recording it, before its job ends.
    const advanced = await first.call('POST', `/test-clocks/${clock.id}/advance/`, { frozenTime: '2025-02-24T01:00:00Z' });
    expect([advanced.status, advanced.body.status]).toEqual([200, 'advancing']);
    expect(await death(first.server)).toEqual({ code: null, signal: 'SIGKILL' });
    await startToDie(w, { ...short, BILLOW_FAILPOINTS: 'payment.after-provider' });
    await startToDie(w, { ...short, BILLOW_FAILPOINTS: 'payment.after-settle' });

    // Restarted without failpoints, the job finishes the run.
    const last = await start(w, short);
    await expect
      // Generous: on a loaded 2-core machine the restarted job's renewals took over 30 s (CI, 2026-11-28), and over 75 s
      // with three test workers and other work beside them (2026-11-29).
      .poll(async () => (await last.call('GET', `/test-clocks/${clock.id}/`)).body, { timeout: 150_000, interval: 100 })
      .toMatchObject({ status: 'ready', frozenTime: '2025-02-24T01:00:00.000Z', failure: null });
    for (const { customerId, id } of subscriptions) {
      expect((await last.call('GET', `/subscriptions/${id}/`)).body).toMatchObject({
        status: 'active',
        billingPeriodStartTime: '2025-02-24T00:00:00.000Z',
        billingPeriodEndTime: '2025-03-24T00:00:00.000Z',
      });
      const [orders, invoices, transactions] = await Promise.all(
        ['orders', 'invoices', 'transaction'].map(async (list) => (await last.call('GET', `/${list}/?customer_id=${customerId}`)).body.results),
      );
      // Oldest first: the trial (nothing to pay), its end (paid), the renewal.
      const byAge = [...orders].reverse().map((o: { id: string; status: string; isRenewal: boolean; amountTotalUnits: number }) => [o.status, o.isRenewal, o.amountTotalUnits]);
      expect(byAge).toEqual([['COMPLETE', false, 0], ['COMPLETE', false, 1000], ['COMPLETE', true, 1000]]);
      expect(invoices.map((i: { status: string }) => i.status)).toEqual(['PAID', 'PAID', 'PAID']);
      const paidOrders = orders.filter((o: { amountTotalUnits: number }) => o.amountTotalUnits > 0).map((o: { id: string }) => o.id);
      const charged = transactions.filter((t: { transactionType: string }) => t.transactionType === 'CHARGE');
      expect(charged.map((t: { order: { id: string } }) => t.order.id).sort()).toEqual(paidOrders.sort());
    }
    expect(await last.server.stop()).toEqual({ code: 0, signal: null });

    // One intent per subscription and period, succeeded: none left processing, none given back.
    const database = await openStopped(w);
    try {
      const intents = await database.db.selectFrom('payment_intents').select(['kind', 'status', 'idempotency_key']).execute();
      const expected = subscriptions.flatMap(({ id }) =>
        ['2025-01-24', '2025-02-24'].map((day) => ({ kind: 'renewal', status: 'succeeded', idempotency_key: `${id}:${day}T00:00:00.000Z` })),
      );
      const byKey = (a: { idempotency_key: string | null }, b: { idempotency_key: string | null }) => a.idempotency_key!.localeCompare(b.idempotency_key!);
      expect(intents.sort(byKey)).toEqual(expected.sort(byKey));
    } finally {
      await database.close();
    }
  }, 330_000);
});
