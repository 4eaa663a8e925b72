import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recoverPayments, recoverRefunds } from '../src/job-handlers/recover-payments.js';
import { systemClock } from '../src/lib/clock.js';
import type { ChargeOutcome, ChargeRequest, PaymentProvider, RefundOutcome, RefundRequest } from '../src/modules/payments/provider.js';
import { replaceSandboxProvider } from '../src/modules/payments/providers.js';
import { SandboxProvider } from '../src/modules/payments/sandbox-provider.js';
import { openShop, type Shop } from './commerce-support.js';
import { uniqueId, type TestServer } from './harness.js';

/**
 * A provider double in place of the sandbox provider: it charges as the sandbox does,
 * remembers every outcome by idempotency key (across "restarts"), and can block a call
 * or fail before or after charging, as a network provider or a dying process would.
 */
class ProviderDouble implements PaymentProvider {
  readonly name = 'double';
  private readonly real = new SandboxProvider();
  readonly outcomes = new Map<string, ChargeOutcome>();
  readonly calls: string[] = [];
  readonly refunds: RefundRequest[] = [];
  gate: Promise<void> | null = null;
  failure: 'before-charging' | 'after-charging' | null = null;
  refundGate: Promise<void> | null = null;
  refundFailure: 'after-refunding' | null = null;

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    this.calls.push(request.idempotencyKey);
    const failure = this.failure;
    this.failure = null;
    if (failure === 'before-charging') throw new Error('the provider could not be reached');
    if (this.gate) await this.gate;
    const outcome = this.outcomes.get(request.idempotencyKey) ?? (await this.real.charge(request));
    this.outcomes.set(request.idempotencyKey, outcome);
    if (failure === 'after-charging') throw new Error('the process died after the provider charged');
    return outcome;
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    this.refunds.push(request);
    if (this.refundGate) await this.refundGate;
    const outcome = await this.real.refund(request);
    const failure = this.refundFailure;
    this.refundFailure = null;
    if (failure === 'after-refunding') throw new Error('the process died after the provider refunded');
    return outcome;
  }
}

let server: TestServer;
let s: Shop;
let provider: ProviderDouble;
let previous: PaymentProvider;

beforeAll(async () => {
  ({ server, s } = await openShop());
  provider = new ProviderDouble();
  previous = replaceSandboxProvider(provider);
});
afterAll(async () => {
  replaceSandboxProvider(previous);
  await server.close();
});
beforeEach(() => {
  provider.gate = null;
  provider.failure = null;
  provider.refundGate = null;
  provider.refundFailure = null;
});

const buy = (customerId: string, headers?: Record<string, string>) =>
  s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId }, headers);

async function buyer(): Promise<string> {
  const customerId = await s.customer();
  await s.card(customerId);
  return customerId;
}

async function ordersOf(customerId: string) {
  return (await s.call('GET', `/orders/?customer_id=${customerId}`)).body.results as { id: string }[];
}

async function intentsOf(customerId: string) {
  const db = server.database.db;
  const customer = await db.selectFrom('customers').select('id').where('customer_id', '=', customerId).executeTakeFirstOrThrow();
  return db.selectFrom('payment_intents').selectAll().where('customer_id', '=', customer.id).orderBy('created_at').execute();
}

/** Every key the double was asked to charge was charged once, whatever the number of calls. */
function chargedOncePerKey(): void {
  expect(provider.outcomes.size).toBe(new Set(provider.calls).size);
}

describe('money moves outside transactions', () => {
  it('holds no lock during the provider call: another customer buys meanwhile; the same customer gets 409', async () => {
    const [slow, other] = [await buyer(), await buyer()];
    let release!: () => void;
    provider.gate = new Promise((resolve) => (release = resolve));
    const pending = buy(slow);
    await expect.poll(async () => (await intentsOf(slow)).length).toBe(1);

    provider.gate = null;
    const meanwhile = await buy(other);
    expect(meanwhile.status).toBe(201);
    const second = await buy(slow);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ detail: expect.stringMatching(/in progress/), code: 'payment_in_progress' });

    release();
    const first = await pending;
    expect(first.status).toBe(201);
    expect(await ordersOf(slow)).toHaveLength(1);
    expect((await intentsOf(slow)).map((i) => i.status)).toEqual(['succeeded']);
    chargedOncePerKey();
  });

  it('gives the provider a key derived from the intent, and records a declined payment as a failed intent', async () => {
    const customerId = await s.customer();
    await s.card(customerId, '4000 0000 0000 0002');
    const declined = await buy(customerId);
    expect(declined.status).toBe(400);
    expect(declined.body.code).toBe('card_declined');
    const [intent] = await intentsOf(customerId);
    expect(intent).toMatchObject({ status: 'failed', failure_code: 'card_declined', provider_key: `billow_pi_${intent!.id}` });
    expect(await ordersOf(customerId)).toHaveLength(0);
    // Nothing is left in progress: the customer may try again at once.
    expect((await buy(customerId)).status).toBe(400);
  });
});

describe('plan changes', () => {
  it('pay outside the transaction too: nothing waits on the provider, and the change is recorded once', async () => {
    const customerId = await buyer();
    const created = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
    expect(created.status).toBe(201);
    let release!: () => void;
    provider.gate = new Promise((resolve) => (release = resolve));
    const pending = s.call('POST', `/subscriptions/${created.body.id}/update/`, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' });
    await expect.poll(async () => (await intentsOf(customerId)).filter((i) => i.kind === 'subscription_update').length).toBe(1);

    provider.gate = null;
    expect((await buy(await buyer())).status).toBe(201);
    expect((await buy(customerId)).status).toBe(409);
    release();
    const changed = await pending;
    expect(changed.status).toBe(200);
    const live = await s.call('GET', `/subscriptions/?customer_id=${customerId}`);
    expect(live.body.results.map((r: { plan: { identifier: string } }) => r.plan.identifier)).toEqual([s.plans.pro]);
    expect((await intentsOf(customerId)).map((i) => [i.kind, i.status])).toEqual([
      ['subscription_create', 'succeeded'],
      ['subscription_update', 'succeeded'],
    ]);
    chargedOncePerKey();
  });
});

describe('a process that dies mid-payment', () => {
  it('after the provider charged: the recovery task records the order once, and the retry gets the first answer', async () => {
    const customerId = await buyer();
    const key = uniqueId('idem');
    provider.failure = 'after-charging';
    const crashed = await buy(customerId, { 'idempotency-key': key });
    expect(crashed.status).toBe(500);
    expect((await intentsOf(customerId)).map((i) => i.status)).toEqual(['processing']);
    expect((await buy(customerId)).status).toBe(409);

    // Recovery settles every stale intent of the database (other runs' too, on a shared PostgreSQL).
    const recovered = await recoverPayments(server.database.db, systemClock, 60_000, 0);
    expect(recovered.failures.filter((f) => f.includes(customerId))).toEqual([]);
    const [intent] = await intentsOf(customerId);
    expect(intent!.status).toBe('succeeded');
    expect(await ordersOf(customerId)).toHaveLength(1);
    chargedOncePerKey();
    expect(provider.calls.filter((k) => k === intent!.provider_key)).toHaveLength(2);

    const retried = await buy(customerId, { 'idempotency-key': key });
    expect(retried.status).toBe(201);
    expect(retried.body).toEqual(intent!.result);
    expect(await ordersOf(customerId)).toHaveLength(1);
  });

  it('before the provider was reached: a retry with the same Idempotency-Key completes the payment, once', async () => {
    const customerId = await buyer();
    const key = uniqueId('idem');
    provider.failure = 'before-charging';
    expect((await buy(customerId, { 'idempotency-key': key })).status).toBe(500);
    const [intent] = await intentsOf(customerId);
    expect(intent!.status).toBe('processing');
    expect(provider.outcomes.has(intent!.provider_key)).toBe(false);

    const retried = await buy(customerId, { 'idempotency-key': key });
    expect(retried.status).toBe(201);
    expect(await ordersOf(customerId)).toHaveLength(1);
    expect((await intentsOf(customerId)).map((i) => i.status)).toEqual(['succeeded']);
    // The recovery task finds nothing left to do for it.
    await recoverPayments(server.database.db, systemClock, 60_000, 0);
    expect((await intentsOf(customerId)).map((i) => i.status)).toEqual(['succeeded']);
    expect(await ordersOf(customerId)).toHaveLength(1);
    chargedOncePerKey();
  });

  it('gives the money back when the purchase changed while it was being paid for', async () => {
    const customerId = await buyer();
    let release!: () => void;
    provider.gate = new Promise((resolve) => (release = resolve));
    const pending = s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY', customerId });
    await expect.poll(async () => (await intentsOf(customerId)).length).toBe(1);
    // A new version of the plan is published while the card is being charged.
    const draft = await s.call('PATCH', `/catalog/plans/${s.plans.pro}/`, { description: 'Now with more' });
    expect(draft.status).toBe(200);
    expect((await s.call('POST', `/catalog/plans/${s.plans.pro}/publish/`, {})).status).toBe(200);
    release();

    const answer = await pending;
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('purchase_changed');
    const [intent] = await intentsOf(customerId);
    expect(intent!.status).toBe('reversed');
    expect(provider.refunds.map((r) => r.idempotencyKey)).toContain(`billow_pi_reverse_${intent!.id}`);
    expect((await s.call('GET', `/subscriptions/?customer_id=${customerId}`)).body.count).toBe(0);
  });
});

describe('refunds in two phases', () => {
  async function paidOrder(): Promise<{ customerId: string; orderId: string }> {
    const customerId = await buyer();
    expect((await buy(customerId)).status).toBe(201);
    const [order] = await ordersOf(customerId);
    return { customerId, orderId: order!.id };
  }
  const refund = (orderId: string, amountUnits?: number) => s.call('POST', '/refunds/', { orderId, ...(amountUnits ? { amountUnits } : {}) });
  const refundRows = (orderId: string) =>
    server.database.db.selectFrom('refunds').select(['status', 'amount_minor']).where('order_id', '=', orderId).orderBy('seq').execute();

  it('hold no lock while the provider refunds, and count a refund in progress against what remains', async () => {
    const { orderId } = await paidOrder();
    let release!: () => void;
    provider.refundGate = new Promise((resolve) => (release = resolve));
    const pending = refund(orderId, 3_000);
    await expect.poll(async () => (await refundRows(orderId)).length).toBe(1);

    provider.refundGate = null;
    // Another customer's purchase goes through meanwhile: no lock is held across the provider call.
    expect((await buy(await buyer())).status).toBe(201);
    // 49.00 was paid and 30.00 is being refunded: 20.00 more is too much, 19.00 is not.
    const tooMuch = await refund(orderId, 2_000);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.detail).toMatch(/remains refundable/);
    expect((await refund(orderId, 1_900)).body.status).toBe('SUCCEEDED');

    release();
    expect((await pending).body).toMatchObject({ status: 'SUCCEEDED', amountUnits: 3_000, order: { status: 'REFUNDED', refundedTotalUnits: 4_900 } });
  });

  it('a refund left processing by a process that died is settled by the recovery task, once', async () => {
    const { orderId } = await paidOrder();
    provider.refundFailure = 'after-refunding';
    expect((await refund(orderId, 1_000)).status).toBe(500);
    expect(await refundRows(orderId)).toEqual([{ status: 'PROCESSING', amount_minor: 1_000 }]);

    expect(await recoverRefunds(server.database.db, systemClock, 0)).toBeGreaterThanOrEqual(1);
    expect(await refundRows(orderId)).toEqual([{ status: 'SUCCEEDED', amount_minor: 1_000 }]);
    const order = (await s.call('GET', `/orders/${orderId}/`)).body;
    expect(order).toMatchObject({ status: 'PARTIAL_REFUND', refundedTotalUnits: 1_000 });
    const transactions = await server.database.db
      .selectFrom('transactions')
      .select(['transaction_type', 'amount_minor'])
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .execute();
    expect(transactions.map((t) => [t.transaction_type, t.amount_minor])).toEqual([
      ['CHARGE', 4_900],
      ['REFUND', -1_000],
    ]);
    // Run again, it changes nothing: the refund is settled once.
    await recoverRefunds(server.database.db, systemClock, 0);
    expect(await refundRows(orderId)).toEqual([{ status: 'SUCCEEDED', amount_minor: 1_000 }]);
    expect((await s.call('GET', `/orders/${orderId}/`)).body.refundedTotalUnits).toBe(1_000);
  });
});
