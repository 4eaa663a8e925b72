import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { statusOf } from '../src/http/errors.js';
import { DomainError } from '../src/lib/domain-error.js';
import { SandboxProvider, SANDBOX_CARDS } from '../src/modules/payments/sandbox-provider.js';
import { cardDetails, luhnValid, paymentProviderOf, requireProvider } from '../src/modules/payments/providers.js';
import type { ChargeRequest } from '../src/modules/payments/provider.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** An environment with no provider configured (the provider table has no row for a fresh id). */
const sandboxScope = { environmentId: randomUUID(), environment: 'sandbox' as const };
const productionScope = { environmentId: randomUUID(), environment: 'production' as const };
const providerOf = (scope: typeof sandboxScope | typeof productionScope) => paymentProviderOf(server.database.db, scope);

let counter = 0;
const key = () => `test-key-${++counter}-${Math.random()}`;

function charge(card: string, offSession: boolean, overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  return {
    methodRef: `card_${card}`,
    amountMinor: 1999,
    currency: 'USD',
    offSession,
    description: 'test',
    idempotencyKey: key(),
    ...overrides,
  };
}

const CHARGE_REF = /^ch_sandbox_[A-Za-z0-9]{24}$/;

describe('the sandbox provider: outcome of each test card', () => {
  const provider = new SandboxProvider();

  it('is named sandbox', () => {
    expect(provider.name).toBe('sandbox');
  });

  it.each([true, false])('4242 4242 4242 4242 succeeds (offSession %s)', async (offSession) => {
    const outcome = await provider.charge(charge(SANDBOX_CARDS.success, offSession));
    expect(outcome).toEqual({ status: 'succeeded', providerRef: expect.stringMatching(CHARGE_REF) });
  });

  it.each([true, false])('4000 0000 0000 0002 is declined (offSession %s)', async (offSession) => {
    const outcome = await provider.charge(charge('4000000000000002', offSession));
    expect(outcome).toEqual({ status: 'failed', code: 'card_declined', message: expect.stringMatching(/declined/) });
  });

  it.each([true, false])('4000 0000 0000 9995 has insufficient funds (offSession %s)', async (offSession) => {
    const outcome = await provider.charge(charge('4000000000009995', offSession));
    expect(outcome).toEqual({
      status: 'failed',
      code: 'insufficient_funds',
      message: expect.stringMatching(/insufficient funds/),
    });
  });

  it('4000 0025 0000 3155 fails off session with authentication_required', async () => {
    const outcome = await provider.charge(charge('4000002500003155', true));
    expect(outcome).toEqual({
      status: 'failed',
      code: 'authentication_required',
      message: expect.stringMatching(/authentication/),
    });
  });

  it('4000 0025 0000 3155 requires action on session, and the confirmation step completes or fails it', async () => {
    const outcome = await provider.charge(charge('4000002500003155', false));
    expect(outcome).toEqual({ status: 'requires_action', providerRef: expect.stringMatching(CHARGE_REF) });
    if (outcome.status !== 'requires_action') throw new Error('unreachable');
    const confirmed = await provider.confirm({ chargeRef: outcome.providerRef, authenticated: true, idempotencyKey: key() });
    expect(confirmed).toEqual({ status: 'succeeded', providerRef: outcome.providerRef });
    const abandoned = await provider.confirm({ chargeRef: outcome.providerRef, authenticated: false, idempotencyKey: key() });
    expect(abandoned).toMatchObject({ status: 'failed', code: 'authentication_required' });
    const foreign = await provider.confirm({ chargeRef: 'pi_123', authenticated: true, idempotencyKey: key() });
    expect(foreign).toMatchObject({ status: 'failed', code: 'processing_error' });
  });

  it.each([
    ['Mastercard', '5555555555554444'],
    ['Amex (15 digits)', '378282246310005'],
    ['Discover', '6011111111111117'],
    ['Visa debit', '4000056655665556'],
  ])('any other Luhn-valid number succeeds, on and off session: %s', async (_name, card) => {
    expect(luhnValid(card)).toBe(true);
    for (const offSession of [true, false]) {
      expect(await provider.charge(charge(card, offSession))).toMatchObject({ status: 'succeeded' });
    }
  });

  it('a handle that is not a Luhn-valid sandbox card fails with processing_error', async () => {
    for (const methodRef of ['card_4242424242424241', 'pm_123', 'card_42', '4242424242424242']) {
      const outcome = await provider.charge(charge('', true, { methodRef }));
      expect(outcome, methodRef).toMatchObject({ status: 'failed', code: 'processing_error' });
    }
  });

  it('each charge gets its own reference', async () => {
    const refs = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const outcome = await provider.charge(charge(SANDBOX_CARDS.success, true));
      if (outcome.status !== 'succeeded') throw new Error('expected success');
      refs.add(outcome.providerRef);
    }
    expect(refs.size).toBe(20);
  });

  it('refuses amounts that are not whole minor units, as a bug of the caller', async () => {
    await expect(provider.charge(charge(SANDBOX_CARDS.success, true, { amountMinor: 10.5 }))).rejects.toThrow(RangeError);
    await expect(provider.charge(charge(SANDBOX_CARDS.success, true, { amountMinor: -1 }))).rejects.toThrow(RangeError);
    await expect(provider.charge(charge(SANDBOX_CARDS.success, true, { currency: 'usd' }))).rejects.toThrow(RangeError);
  });
});

describe('the sandbox provider: idempotency and refunds', () => {
  it('a repeated idempotency key returns the first outcome, whatever the second request says', async () => {
    const provider = new SandboxProvider();
    const idempotencyKey = key();
    const first = await provider.charge(charge(SANDBOX_CARDS.success, true, { idempotencyKey }));
    const again = await provider.charge(charge(SANDBOX_CARDS.success, true, { idempotencyKey }));
    const declinedCardSameKey = await provider.charge(charge('4000000000000002', true, { idempotencyKey }));
    expect(first.status).toBe('succeeded');
    expect(again).toEqual(first);
    expect(declinedCardSameKey).toEqual(first);
    const other = await provider.charge(charge(SANDBOX_CARDS.success, true));
    expect(other).not.toEqual(first);

    const declineKey = key();
    const declined = await provider.charge(charge('4000000000000002', true, { idempotencyKey: declineKey }));
    expect(await provider.charge(charge(SANDBOX_CARDS.success, true, { idempotencyKey: declineKey }))).toEqual(declined);
  });

  it('refunds of a sandbox charge succeed, once per idempotency key', async () => {
    const provider = new SandboxProvider();
    const charged = await provider.charge(charge(SANDBOX_CARDS.success, true));
    if (charged.status !== 'succeeded') throw new Error('expected success');
    const idempotencyKey = key();
    const refund = { chargeRef: charged.providerRef, amountMinor: 500, currency: 'USD', idempotencyKey };
    const first = await provider.refund(refund);
    expect(first).toEqual({ status: 'succeeded', providerRef: expect.stringMatching(/^re_sandbox_[A-Za-z0-9]{24}$/) });
    expect(await provider.refund(refund)).toEqual(first);
    const second = await provider.refund({ ...refund, idempotencyKey: key() });
    expect(second).toMatchObject({ status: 'succeeded' });
    expect(second).not.toEqual(first);
  });

  it('a refund of something that is not a sandbox charge fails', async () => {
    const provider = new SandboxProvider();
    const outcome = await provider.refund({ chargeRef: 'ch_live_123', amountMinor: 500, currency: 'USD', idempotencyKey: key() });
    expect(outcome).toMatchObject({ status: 'failed', message: expect.stringMatching(/not a charge of the sandbox/) });
  });

  it('a new provider instance (a restarted process) answers a key with the same charge; paymentProviderFor shares one', async () => {
    const idempotencyKey = key();
    const a = await new SandboxProvider().charge(charge(SANDBOX_CARDS.success, true, { idempotencyKey }));
    const b = await new SandboxProvider().charge(charge(SANDBOX_CARDS.success, true, { idempotencyKey }));
    expect(b).toEqual(a);
    const other = await new SandboxProvider().charge(charge(SANDBOX_CARDS.success, true, { idempotencyKey: key() }));
    expect(other).not.toEqual(a);
    const shared = await providerOf(sandboxScope);
    expect(shared).toBe(await providerOf(sandboxScope));
    const c = await shared!.charge(charge(SANDBOX_CARDS.success, true, { idempotencyKey }));
    expect(await (await providerOf(sandboxScope))!.charge(charge(SANDBOX_CARDS.success, true, { idempotencyKey }))).toEqual(c);
  });
});

describe('providers per environment', () => {
  it('a sandbox without Stripe has the sandbox provider; production without Stripe has none', async () => {
    expect(await providerOf(sandboxScope)).toBeInstanceOf(SandboxProvider);
    expect((await providerOf(sandboxScope))?.name).toBe('sandbox');
    expect(await providerOf(productionScope)).toBeNull();
    expect(await requireProvider(server.database.db, sandboxScope)).toBe(await providerOf(sandboxScope));
  });

  it('requireProvider in production without Stripe throws 428 payment_provider_required, saying what is missing', async () => {
    let caught: unknown;
    try {
      await requireProvider(server.database.db, productionScope);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DomainError);
    const error = caught as DomainError;
    expect(statusOf(error)).toBe(428);
    expect(error.code).toBe('payment_provider_required');
    expect(error.detail).toMatch(/production payments need a payment provider configured for the environment/i);
    expect(error.detail).toMatch(/billow provider set/);
    expect(error.detail).toMatch(/sandbox.*without one/i);
  });
});

describe('cards', () => {
  it.each([
    ['4242424242424242', true],
    ['4242 4242 4242 4242', false],
    ['4242424242424241', false],
    ['79927398713', false],
    ['378282246310005', true],
    ['6011111111111117', true],
    ['0000000000000', true],
    ['42424242424242424242', false],
    ['', false],
    ['abcd', false],
  ])('luhnValid(%s) is %s', (number, valid) => {
    expect(luhnValid(number)).toBe(valid);
  });

  it.each([
    ['4242424242424242', 'visa'],
    ['5105105105105100', 'mastercard'],
    ['5555555555554444', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720990000000007', 'mastercard'],
    ['2721000000000004', 'unknown'],
    ['2220990000000002', 'unknown'],
    ['5600000000000003', 'unknown'],
    ['378282246310005', 'amex'],
    ['341111111111111', 'amex'],
    ['6011111111111117', 'discover'],
    ['6500000000000002', 'discover'],
    ['3056930009020004', 'unknown'],
  ])('the brand of %s is %s', (number, brand) => {
    expect(cardDetails(number).brand).toBe(brand);
  });

  it('reports last4, credit funding, US, and the expiry given', () => {
    expect(cardDetails('4000 0025 0000 3155', { expMonth: 7, expYear: 2031 })).toEqual({
      brand: 'visa',
      last4: '3155',
      expMonth: 7,
      expYear: 2031,
      funding: 'credit',
      country: 'US',
    });
    const undated = cardDetails('4242424242424242');
    expect(undated.expYear).toBeGreaterThan(new Date().getUTCFullYear());
  });
});
