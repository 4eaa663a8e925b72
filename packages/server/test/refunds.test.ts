import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import {
  commerceSeller,
  createCustomer,
  eventsOfType,
  insertOrder,
  insertSubscription,
  orderRow,
  transactionsOf,
  type Seller,
  type TestCustomer,
} from './commerce-factory.js';

let server: TestServer;
let seller: Seller;
let customer: TestCustomer;

beforeAll(async () => {
  server = await startTestServer();
  seller = await commerceSeller(server, await server.createOrg());
  customer = await createCustomer(seller, { name: 'Refund Tester', email: 'refunds@example.com' });
});
afterAll(() => server.close());

const refund = (body: Record<string, unknown>, on: Seller = seller, headers: Record<string, string> = {}) =>
  server.request('POST', `${on.api}/refunds/`, { key: on.key, body, headers });
const get = (path: string, on: Seller = seller) => server.request('GET', `${on.api}${path}`, { key: on.key });

describe('a full refund', () => {
  it('refunds the whole remaining balance when no amount is given', async () => {
    const order = await insertOrder(seller, customer, { totalMinor: 1200, taxMinor: 200 });
    const res = await refund({ orderId: order.orderId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      reason: 'REQUESTED_BY_CUSTOMER',
      amountUnits: 1200,
      amount: 12,
      currency: 'USD',
      internalNote: null,
      failureReason: null,
      status: 'SUCCEEDED',
      order: { id: order.orderId, status: 'REFUNDED', refundedTotalUnits: 1200, amountTotalUnits: 1200, invoiceId: order.invoiceId },
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await orderRow(seller, order.orderId)).refunded_minor).toBe(1200);

    const again = await refund({ orderId: order.orderId });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: `Order ${order.orderId} has already been refunded in full`, code: 'order_not_refundable' });
  });

  it('writes a REFUND transaction: negative amount, no fee, the tax given back, the net', async () => {
    const order = await insertOrder(seller, customer, { totalMinor: 1200, taxMinor: 200, last4: '4444' });
    const res = await refund({ orderId: order.orderId, reason: 'DUPLICATE', internalNote: 'charged twice' });
    expect(res.body).toMatchObject({ reason: 'DUPLICATE', internalNote: 'charged twice' });
    const [charge, back] = await transactionsOf(seller, order.orderId);
    expect(charge).toMatchObject({ transaction_type: 'CHARGE', amount_minor: 1200 });
    expect(back).toMatchObject({
      transaction_type: 'REFUND',
      status: 'success',
      refund_id: res.body.id,
      currency: 'USD',
      amount_minor: -1200,
      fee_minor: 0,
      fee_breakdown: [],
      tax_minor: -200,
      net_minor: -1000,
      payment_method_id: charge!.payment_method_id,
    });
    expect(back!.provider_ref).toMatch(/^re_sandbox_/);

    const listed = await get(`/transaction/?search=${order.orderId}`);
    expect(listed.body.count).toBe(2);
    const [refundTx, chargeTx] = listed.body.results;
    expect(refundTx).toMatchObject({
      transactionType: 'REFUND',
      amountTotal: -12,
      morFee: 0,
      morFeeBreakdown: [],
      collectedTax: -2,
      netPayout: -10,
      amountTotalUnits: -1200,
      netPayoutUnits: -1000,
      paymentMethodType: 'card',
      paymentMethodName: 'visa',
      last4: '4444',
      refundId: res.body.id,
      isSettled: true,
      order: { id: order.orderId, status: 'REFUNDED' },
    });
    expect(chargeTx).toMatchObject({ transactionType: 'CHARGE', amountTotal: 12, collectedTax: 2, refundId: null, isSettled: false });
    // The fee of the charge is kept: it is not given back by the refund.
    expect(chargeTx.morFee).toBeGreaterThan(0);
    expect(chargeTx.netPayoutUnits).toBe(1200 - chargeTx.morFeeUnits - 200);
  });

  it('writes refund.created, order.refunded and refund.updated, and a timeline entry', async () => {
    const order = await insertOrder(seller, customer, { totalMinor: 5000, taxMinor: 0 });
    const res = await refund({ orderId: order.orderId, amountUnits: 2000 });
    const created = (await eventsOfType(seller, 'refund.created')).find((e) => (e.payload as any).data.object.id === res.body.id);
    const updated = (await eventsOfType(seller, 'refund.updated')).find((e) => (e.payload as any).data.object.id === res.body.id);
    const refunded = (await eventsOfType(seller, 'order.refunded')).find((e) => (e.payload as any).data.object.id === order.orderId);
    expect(created && updated && refunded).toBeTruthy();
    expect(Number(created!.seq)).toBeLessThan(Number(refunded!.seq));
    expect(Number(refunded!.seq)).toBeLessThan(Number(updated!.seq));
    expect((created!.payload as any).data.object).toMatchObject({
      object: 'refund',
      status: 'PROCESSING',
      amount: '20.00',
      amount_units: 2000,
      currency: 'USD',
      reason: 'REQUESTED_BY_CUSTOMER',
      order_id: order.orderId,
      customer: { id: customer.id, customer_id: customer.customerId, email: 'refunds@example.com' },
      subscription_id: null,
      organization: seller.organizationId,
    });
    expect((updated!.payload as any).data).toMatchObject({ object: { status: 'SUCCEEDED' }, previous_attributes: { status: 'PROCESSING' } });
    expect((refunded!.payload as any).data).toMatchObject({
      object: { object: 'order', status: 'PARTIAL_REFUND', amount_total_units: 5000, customer_id: customer.id },
      previous_attributes: { status: 'COMPLETE' },
    });

    const timeline = await get(`/orders/${order.orderId}/events/`);
    expect(timeline.body.results[0]).toMatchObject({
      code: 'refund.succeeded',
      status: 'success',
      title: 'Order partially refunded',
      metadata: { primary: '-20.00', secondary: 'card ending 4242', refundId: res.body.id },
    });
  });
});

describe('a partial refund', () => {
  it('takes amountUnits, then amount, then the rest, moving the order to PARTIAL_REFUND and REFUNDED', async () => {
    const order = await insertOrder(seller, customer, { totalMinor: 1200, taxMinor: 200 });
    const first = await refund({ orderId: order.orderId, amountUnits: 500 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ amountUnits: 500, amount: 5, status: 'SUCCEEDED' });
    expect(first.body.order).toMatchObject({ status: 'PARTIAL_REFUND', refundedTotalUnits: 500 });

    const second = await refund({ orderId: order.orderId, amount: 3.5 });
    expect(second.body).toMatchObject({ amountUnits: 350, amount: 3.5, order: { status: 'PARTIAL_REFUND', refundedTotalUnits: 850 } });

    const tooMuch = await refund({ orderId: order.orderId, amountUnits: 351 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toEqual({
      detail: 'The refund of 3.51 USD is more than the 3.50 USD that remains refundable on this order',
      code: 'invalid_refund_amount',
    });

    const rest = await refund({ orderId: order.orderId });
    expect(rest.body).toMatchObject({ amountUnits: 350, order: { status: 'REFUNDED', refundedTotalUnits: 1200 } });

    // The tax given back follows the refunded share and adds up to the order's tax exactly.
    const refunds = (await transactionsOf(seller, order.orderId)).filter((t) => t.transaction_type === 'REFUND');
    expect(refunds.map((t) => [t.amount_minor, t.tax_minor, t.net_minor])).toEqual([
      [-500, -83, -417],
      [-350, -59, -291],
      [-350, -58, -292],
    ]);
  });

  it('prefers amountUnits when amount is given too, and takes amount as text', async () => {
    const order = await insertOrder(seller, customer, { totalMinor: 10000 });
    const both = await refund({ orderId: order.orderId, amountUnits: 100, amount: 99 });
    expect(both.body).toMatchObject({ amountUnits: 100, amount: 1 });
    const invalidIgnored = await refund({ orderId: order.orderId, amountUnits: 150, amount: -4 });
    expect(invalidIgnored.body).toMatchObject({ amountUnits: 150 });
    const text = await refund({ order_id: order.orderId, amount: '2.50' });
    expect(text.status).toBe(200);
    expect(text.body).toMatchObject({ amountUnits: 250, amount: 2.5 });
    expect((await orderRow(seller, order.orderId)).refunded_minor).toBe(500);
  });

  it('uses the digits of the order currency', async () => {
    const yen = await insertOrder(seller, customer, { currency: 'JPY', totalMinor: 3000, taxMinor: 0 });
    expect((await refund({ orderId: yen.orderId, amount: 1000 })).body).toMatchObject({ amountUnits: 1000, amount: 1000 });
    const fraction = await refund({ orderId: yen.orderId, amount: 10.5 });
    expect(fraction.status).toBe(400);
    expect(fraction.body.detail).toBe('amount must be a whole number in this currency (JPY)');
  });
});

describe('a refund that cannot be made', () => {
  it('refuses zero, negative and malformed amounts', async () => {
    const order = await insertOrder(seller, customer);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ amountUnits: 0 }, /^amountUnits must be at least 1/],
      [{ amountUnits: -100 }, /^amountUnits must be at least 1/],
      [{ amount: 0 }, /^amount must be greater than 0/],
      [{ amount: -1 }, /^amount must be greater than 0/],
      [{ amount: '0.00' }, /^amount must be greater than 0/],
      [{ amount: 1.005 }, /^amount has more than 2 decimal places/],
      [{ amount: 'lots' }, /^amount must be a decimal number/],
      [{ amountUnits: 1.5 }, /amountUnits/],
      [{ amountUnits: 1201 }, /^The refund of 12\.01 USD is more than the 12\.00 USD that remains refundable/],
      [{ amount: 12.01 }, /^The refund of 12\.01 USD is more than/],
    ];
    for (const [body, detail] of cases) {
      const res = await refund({ orderId: order.orderId, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail, JSON.stringify(body)).toMatch(detail);
    }
    expect((await orderRow(seller, order.orderId)).refunded_minor).toBe(0);
    const refunds = await get(`/refunds/?search=${order.orderId}`);
    expect(refunds.body.count).toBe(0);
  });

  it('refuses trial orders and orders that are not COMPLETE or PARTIAL_REFUND', async () => {
    const trial = await insertOrder(seller, customer, { isTrial: true, totalMinor: 0, taxMinor: 0, providerRef: null });
    const trialRes = await refund({ orderId: trial.orderId });
    expect(trialRes.status).toBe(400);
    expect(trialRes.body.code).toBe('order_not_refundable');
    expect(trialRes.body.detail).toMatch(/trial order/);
    // Even a trial order that somehow carries an amount.
    const paidTrial = await insertOrder(seller, customer, { isTrial: true });
    expect((await refund({ orderId: paidTrial.orderId, amountUnits: 100 })).status).toBe(400);

    for (const status of ['FAILED', 'CANCELLED', 'FRAUDULENT'] as const) {
      const order = await insertOrder(seller, customer, { status, paidAt: status === 'FAILED' ? null : new Date() });
      const res = await refund({ orderId: order.orderId });
      expect(res.status, status).toBe(400);
      expect(res.body.detail).toBe(`Order ${order.orderId} is ${status}: only COMPLETE and PARTIAL_REFUND orders can be refunded`);
    }
    const noCharge = await insertOrder(seller, customer, { providerRef: null });
    const noChargeRes = await refund({ orderId: noCharge.orderId });
    expect(noChargeRes.status).toBe(400);
    expect(noChargeRes.body.detail).toMatch(/no captured payment/);
  });

  it('is 404 for an unknown or PENDING order, or one of another environment or organization', async () => {
    const pending = await insertOrder(seller, customer, { status: 'PENDING', paidAt: null });
    const order = await insertOrder(seller, customer);
    const unknown = await refund({ orderId: 'ORD-20990101000000-XXXXX' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('order_not_found');
    expect((await refund({ orderId: pending.orderId })).status).toBe(404);
    const production = await server.request('POST', '/api/v1/refunds/', {
      key: seller.org.production.serverKey,
      body: { orderId: order.orderId },
    });
    expect(production.status).toBe(404);
    const other = await server.createOrg();
    const foreign = await server.request('POST', '/sandbox/api/v1/refunds/', { key: other.sandbox.serverKey, body: { orderId: order.orderId } });
    expect(foreign.status).toBe(404);
    expect((await orderRow(seller, order.orderId)).refunded_minor).toBe(0);
  });

  it('validates the body', async () => {
    const order = await insertOrder(seller, customer);
    expect((await refund({})).status).toBe(400);
    const reason = await refund({ orderId: order.orderId, reason: 'BORED' });
    expect(reason.status).toBe(400);
    expect(reason.body.detail).toMatch(/^reason/);
    const unknownField = await refund({ orderId: order.orderId, amountCents: 5 });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.detail).toBe('amountCents is not a known field');
    const client = await server.request('POST', `${seller.api}/refunds/`, { key: seller.org.sandbox.clientKey, body: { orderId: order.orderId } });
    expect(client.status).toBe(403);
  });

  it('answers 428 in production, where no payment provider is configured', async () => {
    const production = await commerceSeller(server, seller.org, 'production');
    const buyer = await createCustomer(production);
    const order = await insertOrder(production, buyer);
    const res = await refund({ orderId: order.orderId }, production);
    expect(res.status).toBe(428);
    expect(res.body.code).toBe('payment_provider_required');
    expect((await orderRow(production, order.orderId)).refunded_minor).toBe(0);
  });

  it('records a FAILED refund when the provider refuses, and leaves the order as it was', async () => {
    const order = await insertOrder(seller, customer, { providerRef: 'ch_elsewhere_123' });
    const res = await refund({ orderId: order.orderId, amountUnits: 300 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'FAILED',
      amountUnits: 300,
      failureReason: 'ch_elsewhere_123 is not a charge of the sandbox provider',
      order: { status: 'COMPLETE', refundedTotalUnits: 0 },
    });
    expect((await transactionsOf(seller, order.orderId)).map((t) => t.transaction_type)).toEqual(['CHARGE']);
    const updated = (await eventsOfType(seller, 'refund.updated')).find((e) => (e.payload as any).data.object.id === res.body.id);
    expect((updated!.payload as any).data.object.status).toBe('FAILED');
    const refunded = (await eventsOfType(seller, 'order.refunded')).filter((e) => (e.payload as any).data.object.id === order.orderId);
    expect(refunded).toEqual([]);
    expect((await get(`/orders/${order.orderId}/events/`)).body.results[0]).toMatchObject({ code: 'refund.failed', status: 'failed' });
    expect((await get(`/refunds/${res.body.id}/`)).body.status).toBe('FAILED');
  });
});

describe('refunds under concurrency', () => {
  it('never refunds more than the order: 20 partial refunds of a tenth each, 10 succeed', async () => {
    const order = await insertOrder(seller, customer, { totalMinor: 1000, taxMinor: 167 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund({ orderId: order.orderId, amountUnits: 100 })));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(ok).toHaveLength(10);
    expect(ok.every((a) => a.body.status === 'SUCCEEDED')).toBe(true);
    // Once the order is refunded in full, it is no longer refundable at all.
    expect(refused.map((a) => a.status)).toEqual(Array(10).fill(400));
    expect(refused.every((a) => ['invalid_refund_amount', 'order_not_refundable'].includes(a.body.code))).toBe(true);
    expect(ok.reduce((sum, a) => sum + a.body.amountUnits, 0)).toBe(1000);

    const row = await orderRow(seller, order.orderId);
    expect(row).toMatchObject({ refunded_minor: 1000, status: 'REFUNDED' });
    const refunds = (await transactionsOf(seller, order.orderId)).filter((t) => t.transaction_type === 'REFUND');
    expect(refunds).toHaveLength(10);
    expect(refunds.reduce((sum, t) => sum + t.amount_minor, 0)).toBe(-1000);
    expect(refunds.reduce((sum, t) => sum + t.tax_minor, 0)).toBe(-167);
  });

  it('never refunds more than the order when the amounts do not divide it', async () => {
    const order = await insertOrder(seller, customer, { totalMinor: 1000, taxMinor: 0 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund({ orderId: order.orderId, amountUnits: 70 })));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(14);
    const row = await orderRow(seller, order.orderId);
    expect(row.refunded_minor).toBe(980);
    expect(row.status).toBe('PARTIAL_REFUND');
    expect(ok.reduce((sum, a) => sum + a.body.amountUnits, 0)).toBe(row.refunded_minor);
  });

  it('refunds once for one Idempotency-Key', async () => {
    const order = await insertOrder(seller, customer, { totalMinor: 1000 });
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => refund({ orderId: order.orderId, amountUnits: 100 }, seller, { 'idempotency-key': key })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect((await orderRow(seller, order.orderId)).refunded_minor).toBe(100);
  });
});

describe('the refund list', () => {
  let list: Seller;
  let alice: TestCustomer;
  let zed: TestCustomer;
  const made: Record<string, { id: string; orderId: string }> = {};

  beforeAll(async () => {
    list = await commerceSeller(server, await server.createOrg());
    alice = await createCustomer(list, { name: 'Alice Archer', email: 'alice@list.example' });
    zed = await createCustomer(list, { name: 'Zed Zimmer', email: 'zed@list.example' });
    const subscriptionId = await insertSubscription(list, zed);
    for (const [name, who, options] of [
      ['first', alice, {}],
      ['second', zed, { subscriptionId }],
      ['failed', alice, { providerRef: 'ch_elsewhere_9' }],
      ['third', alice, {}],
    ] as const) {
      const order = await insertOrder(list, who, options);
      const res = await refund({ orderId: order.orderId, amountUnits: 100 }, list);
      expect(res.status).toBe(200);
      made[name] = { id: res.body.id, orderId: order.orderId };
    }
  });

  const refundIds = (body: { results: { id: string }[] }) => body.results.map((r) => r.id);

  it('lists newest first, with the order embedded', async () => {
    const res = await get('/refunds/', list);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(4);
    expect(refundIds(res.body)).toEqual([made.third!.id, made.failed!.id, made.second!.id, made.first!.id]);
    expect(res.body.results[2].order).toMatchObject({ id: made.second!.orderId, billingType: 'SUBSCRIPTION' });
    expect(res.body.results[2].order.subscription.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('filters by status, search and date', async () => {
    expect(refundIds((await get('/refunds/?status=FAILED', list)).body)).toEqual([made.failed!.id]);
    expect((await get('/refunds/?status=SUCCEEDED', list)).body.count).toBe(3);
    expect(refundIds((await get('/refunds/?search=zimmer', list)).body)).toEqual([made.second!.id]);
    expect((await get('/refunds/?search=ALICE@list', list)).body.count).toBe(3);
    expect(refundIds((await get(`/refunds/?search=${made.first!.orderId}`, list)).body)).toEqual([made.first!.id]);
    expect(refundIds((await get(`/refunds/?search=${made.third!.id.slice(0, 13)}`, list)).body)).toEqual([made.third!.id]);
    expect(refundIds((await get(`/refunds/?search=${zed.customerId}`, list)).body)).toEqual([made.second!.id]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await get(`/refunds/?start_date=${today}&end_date=${today}`, list)).body.count).toBe(4);
    expect((await get('/refunds/?end_date=2020-01-01', list)).body.count).toBe(0);
    expect((await get('/refunds/?status=LOST', list)).status).toBe(400);
  });

  it('retrieves one refund, in its own environment only', async () => {
    const res = await get(`/refunds/${made.first!.id}/`, list);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: made.first!.id, amountUnits: 100, status: 'SUCCEEDED', order: { id: made.first!.orderId } });
    expect((await get(`/refunds/${randomUUID()}/`, list)).status).toBe(404);
    expect((await get('/refunds/not-a-uuid/', list)).status).toBe(404);
    expect((await get(`/refunds/${made.first!.id}/`, seller)).status).toBe(404);
    const production = await server.request('GET', `/api/v1/refunds/${made.first!.id}/`, { key: list.org.production.serverKey });
    expect(production.status).toBe(404);
  });
});

describe('the transaction list', () => {
  let ledger: Seller;
  let buyer: TestCustomer;

  beforeAll(async () => {
    ledger = await commerceSeller(server, await server.createOrg());
    buyer = await createCustomer(ledger, { name: 'Ledger Buyer', email: 'ledger@example.com' });
  });

  it('lists charges and refunds newest first, with fees, tax and net as numbers', async () => {
    const old = await insertOrder(ledger, buyer, { totalMinor: 10000, taxMinor: 0, createdAt: new Date('2026-01-05T10:00:00Z') });
    const recent = await insertOrder(ledger, buyer, { totalMinor: 11900, taxMinor: 1900, last4: '0005' });
    const res = await get('/transaction/', ledger);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    const [first, second] = res.body.results;
    expect(first).toMatchObject({
      order: { id: recent.orderId },
      currency: 'USD',
      currencySymbol: '$',
      amountTotal: 119,
      collectedTax: 19,
      status: 'success',
      transactionType: 'CHARGE',
      paymentMethodType: 'card',
      paymentMethodName: 'visa',
      last4: '0005',
      isSettled: false,
    });
    // 2.9 % of 119.00 = 3.451 -> 3.45, plus 0.40 fixed.
    expect(first.morFeeBreakdown).toEqual([
      { name: 'base_fee', percentage: '2.9', valueUnits: 345, currency: 'USD' },
      { name: 'fixed_fee', percentage: null, valueUnits: 40, currency: 'USD' },
    ]);
    expect(first).toMatchObject({ morFee: 3.85, morFeeUnits: 385, netPayout: 96.15, netPayoutUnits: 9615 });
    expect(first.availableOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(second).toMatchObject({ order: { id: old.orderId }, availableOn: '2026-01-12', isSettled: true });
  });

  it('filters by status, search and date', async () => {
    const failedOrder = await insertOrder(ledger, buyer, { status: 'FAILED', paidAt: null });
    await server.database.db
      .insertInto('transactions')
      .values({
        id: randomUUID(),
        environment_id: ledger.environmentId,
        order_id: failedOrder.orderId,
        refund_id: null,
        transaction_type: 'CHARGE',
        status: 'failure',
        currency: 'USD',
        amount_minor: 1200,
        fee_minor: 0,
        fee_breakdown: '[]',
        tax_minor: 0,
        net_minor: 0,
        payment_method_id: failedOrder.paymentMethodId,
        provider_ref: 'ch_sandbox_declinedDECLINEDdeclined',
        failure_reason: 'Your card was declined',
        available_on: null,
        created_at: new Date(),
      })
      .execute();
    const failures = await get('/transaction/?status=failure', ledger);
    expect(failures.body.count).toBe(1);
    expect(failures.body.results[0]).toMatchObject({ status: 'failure', failureReason: 'Your card was declined', availableOn: null, isSettled: false });
    expect((await get('/transaction/?search=declinedDECLINED', ledger)).body.count).toBe(1);
    expect((await get('/transaction/?search=ledger@example', ledger)).body.count).toBe(3);
    expect((await get(`/transaction/?search=${ledger.product.name}`, ledger)).body.count).toBe(3);
    expect((await get('/transaction/?search=card', ledger)).body.count).toBe(3);
    expect((await get('/transaction/?start_date=2026-01-01&end_date=2026-01-31', ledger)).body.count).toBe(1);
    expect((await get('/transaction/?status=settled', ledger)).status).toBe(400);
    expect((await get('/transaction/', seller)).body.results.map((t: { order: { id: string } }) => t.order.id)).not.toContain(
      failedOrder.orderId,
    );
  });
});

describe('refunds of a few cents (issue 24, item 11)', () => {
  it('lists a 1 to 9 cent refund in the transactions, the refunds and the order, as exact negative numbers', async () => {
    const cents = await commerceSeller(server, await server.createOrg());
    const buyer = await createCustomer(cents, { name: 'Cents Buyer', email: 'cents@example.com' });
    const order = await insertOrder(cents, buyer, { totalMinor: 1000, taxMinor: 0 });
    for (const amountUnits of [1, 5, 9]) {
      const res = await refund({ orderId: order.orderId, amountUnits }, cents);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ amountUnits, amount: amountUnits / 100 });
    }
    const listed = await get('/transaction/', cents);
    expect(listed.status, listed.text).toBe(200);
    const refunds = listed.body.results.filter((t: { transactionType: string }) => t.transactionType === 'REFUND');
    expect(refunds.map((t: { amountTotal: number }) => t.amountTotal)).toEqual([-0.09, -0.05, -0.01]);
    expect(refunds.map((t: { netPayout: number }) => t.netPayout)).toEqual([-0.09, -0.05, -0.01]);
    expect((await get('/refunds/', cents)).status).toBe(200);
    expect((await get(`/orders/${order.orderId}/`, cents)).status).toBe(200);
  });
});
