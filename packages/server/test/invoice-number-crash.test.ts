/**
 * A crash between taking an invoice number and committing the invoice (issue 27, item 3;
 * decisions 0062 and 0064): `billow start` is killed at the failpoint invoice.after-number,
 * in the settlement transaction, then started again on the same database. The purchase is
 * settled afterwards (by its retry, or by the recovery task) and takes the number the dead
 * transaction gave back: the numbers stay 1..N, none used twice, none skipped.
 */
import { describe, expect, it } from 'vitest';
import { DATABASE_KIND } from '../../cli/test/support.js';
import { crashWorkspaces, list, okWith, startWithFailpoints, type Call } from './crash-workspaces.js';

const workspace = crashWorkspaces();

// Short leases: the dead request's key and the recovery job are taken over quickly.
const SHORT = { BILLOW_IDEMPOTENCY_LEASE_MS: '100', BILLOW_PAYMENT_RECOVERY_AFTER_MS: '200', BILLOW_JOB_LEASE_MS: '1000' };

async function shopWith(call: Call): Promise<{ planIdentifier: string; chargePeriod: string; customerId: string }> {
  const ok = okWith(call);
  const product = await ok('POST', '/catalog/products/', { name: 'Numbered', identifier: 'numbered', taxCode: 'saas' });
  await ok('POST', '/catalog/plans/', { name: 'Lifetime', product: product.id, identifier: 'lifetime' });
  const charges = [{ chargePeriod: 'ONE_TIME', priceData: { amount: 49 } }];
  await ok('POST', '/catalog/plans/lifetime/prices/bulk/', { prices: [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges }] }] });
  await ok('POST', '/catalog/plans/lifetime/publish/', {});
  await ok('POST', '/customers/', { customerId: 'ada', email: 'ada@example.com' });
  await ok('POST', '/payment-methods/', { customerId: 'ada', cardNumber: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123' });
  return { planIdentifier: 'lifetime', chargePeriod: 'ONE_TIME', customerId: 'ada' };
}

async function numbers(call: Call): Promise<string[]> {
  return (await list(call, '/invoices/?page_size=100')).map((i: { number: string }) => i.number).sort();
}

/** The numbers 1..n of the seller's sequence, as the seller profile's prefix and time zone write them. */
async function expected(call: Call, n: number): Promise<string[]> {
  const profile = (await call('GET', '/seller-profile/')).body;
  const year = new Intl.DateTimeFormat('en', { timeZone: profile.timeZone, year: 'numeric' }).format(new Date());
  return Array.from({ length: n }, (_, i) => `${profile.invoicePrefix ?? 'INV'}-${year}-${String(i + 1).padStart(6, '0')}`);
}

describe(`invoice numbers across a crash before the commit, on ${DATABASE_KIND}`, () => {
  it('are given back by the dead transaction and taken by the settlement that follows: 1..N, no gap, no duplicate', async () => {
    const w = await workspace();
    const first = await startWithFailpoints(w, 'invoice.after-number', SHORT);
    const purchase = await shopWith(first.call);
    // Killed holding number 1, before the invoice was committed.
    await expect(first.call('POST', '/charges/', purchase, { 'idempotency-key': 'crash-1' })).rejects.toThrow();
    expect(await first.server.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // The retry settles the paid purchase: it takes number 1 again; two more purchases follow it.
    const second = await startWithFailpoints(w, null, SHORT);
    // (The recovery task may settle it first; the retry then answers the same order.)
    expect((await second.call('POST', '/charges/', purchase, { 'idempotency-key': 'crash-1' })).status).toBe(201);
    for (const key of ['after-1', 'after-2']) expect((await second.call('POST', '/charges/', purchase, { 'idempotency-key': key })).status).toBe(201);
    expect(await numbers(second.call)).toEqual(await expected(second.call, 3));
    await second.server.stop();

    // Killed again holding number 4; nobody retries: the recovery task settles it with number 4.
    const third = await startWithFailpoints(w, 'invoice.after-number', SHORT);
    await expect(third.call('POST', '/charges/', purchase)).rejects.toThrow();
    expect(await third.server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const fourth = await startWithFailpoints(w, null, SHORT);
    await expect.poll(async () => (await numbers(fourth.call)).length, { timeout: 20_000, interval: 200 }).toBe(4);
    expect((await fourth.call('POST', '/charges/', purchase)).status).toBe(201);
    expect(await numbers(fourth.call)).toEqual(await expected(fourth.call, 5));
    const orders = await list(fourth.call, '/orders/?customer_id=ada&page_size=100');
    expect(orders).toHaveLength(5);
  });
});
