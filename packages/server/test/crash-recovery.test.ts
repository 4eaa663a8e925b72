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
  startServer,
  type StartedServer,
  type Workspace,
} from '../../cli/test/support.js';

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

const KEYS = /[Dd]emo organization [0-9a-f-]{36}:\n +sandbox +server key +(\S+)/;

async function start(w: Workspace, env: Record<string, string> = {}): Promise<{ server: StartedServer; key: string; call: Call }> {
  const server = await startServer({ ...w, env: { ...w.env, ...env } });
  const key = KEYS.exec(server.stdout())?.[1];
  if (!key) throw new Error(`no sandbox key in:\n${server.stdout()}`);
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
    const short = { BILLOW_IDEMPOTENCY_LEASE_MS: '100', BILLOW_PAYMENT_RECOVERY_AFTER_MS: '200' };
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
