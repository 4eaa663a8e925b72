/**
 * A known year on a test clock (issue 30, "Correctness"): new subscribers, an upgrade and a
 * downgrade, two switches to yearly billing, a trial that converts and one that is cancelled,
 * a failed renewal that dunning recovers and one it loses, a refund, cancellations, a customer
 * who comes back, in two currencies. Every month's figures are checked against the tables
 * below, worked out by hand from the definitions of docs/analytics.md: MRR, its movements, the
 * paying customers and the ratios (GET /analytics/mrr/, the whole business and each plan),
 * cash and dunning (GET /analytics/cash/), trials and active subscriptions
 * (GET /analytics/subscribers/), the last two also of each plan (decision 0107), and December
 * converted into a reporting currency; and the kept figures against a rebuild from the raw
 * tables. Starter, Pro and Studio are the plans of one product, so the product's figures are
 * the whole business's.
 *
 * The cast, on one clock that starts on 2025-01-01 at midnight UTC (every monthly subscription
 * bought then renews on the 1st):
 * - Ada: Starter at $10.00 a month; Pro from 10 February ($30.00); Pro yearly ($300.00, so
 *   $25.00 a month) from 1 October.
 * - Ben: Pro at $30.00; Starter from 10 March; cancels on 15 June; back on Starter on 5 August.
 * - Chloé: Starter in euros, €9.00 a month; Starter yearly (€90.00, €7.50 a month) from 1 May.
 * - Tess: Studio's 14-day trial with a card; it converts on 15 January at $50.00; she cancels
 *   at the end of her period on 1 November, which ends on 15 November.
 * - Tom: Studio's trial; he cancels it on 5 January: ended, not converted.
 * - Dan and Eve buy Starter and Pro on 1 April; both cards are declined at the renewal of 1 May.
 *   Dan sets a new card on 3 May and dunning collects it; Eve's dunning ends on 15 May.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CashService } from '../src/modules/analytics/cash.service.js';
import { AnalyticsService } from '../src/modules/analytics/service.js';
import { ManualClock } from '../src/lib/clock.js';
import { CARDS, shop, untilClockReady, type Shop } from './commerce-support.js';
import { environmentIdOf, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;
let s: Shop;
let clockId: string;

const plans = { starter: '', pro: '', studio: '' };

interface Movements {
  new?: number;
  expansion?: number;
  contraction?: number;
  churned?: number;
  reactivation?: number;
}

interface MonthFigures {
  mrrEnd: number;
  moved?: Movements;
  /** Paying customers at the start and the end of the month. */
  customers: [number, number];
}

/** Dollars, month by month, in cents; worked out by hand from the cast above. */
const USD: Record<string, MonthFigures> = {
  '2025-01': { mrrEnd: 9000, moved: { new: 9000 }, customers: [0, 3] }, // Ada 10 + Ben 30 + Tess 50 (15 January)
  '2025-02': { mrrEnd: 11000, moved: { expansion: 2000 }, customers: [3, 3] }, // Ada 10 → 30
  '2025-03': { mrrEnd: 9000, moved: { contraction: -2000 }, customers: [3, 3] }, // Ben 30 → 10
  '2025-04': { mrrEnd: 13000, moved: { new: 4000 }, customers: [3, 5] }, // Dan 10, Eve 30
  '2025-05': { mrrEnd: 10000, moved: { churned: -3000 }, customers: [5, 4] }, // Eve lost to dunning; Dan recovered
  '2025-06': { mrrEnd: 9000, moved: { churned: -1000 }, customers: [4, 3] }, // Ben cancels
  '2025-07': { mrrEnd: 9000, customers: [3, 3] },
  '2025-08': { mrrEnd: 10000, moved: { reactivation: 1000 }, customers: [3, 4] }, // Ben is back
  '2025-09': { mrrEnd: 10000, customers: [4, 4] }, // a refund moves cash, not MRR
  '2025-10': { mrrEnd: 9500, moved: { contraction: -500 }, customers: [4, 4] }, // Ada 30 → 300 / 12
  '2025-11': { mrrEnd: 4500, moved: { churned: -5000 }, customers: [4, 3] }, // Tess's period ends
  '2025-12': { mrrEnd: 4500, customers: [3, 3] },
};

/** Dollars on Starter alone: a customer's move from one plan to another leaves one plan and joins the other. */
const STARTER_USD: Record<string, MonthFigures> = {
  '2025-01': { mrrEnd: 1000, moved: { new: 1000 }, customers: [0, 1] }, // Ada
  '2025-02': { mrrEnd: 0, moved: { churned: -1000 }, customers: [1, 0] }, // Ada moves to Pro
  '2025-03': { mrrEnd: 1000, moved: { new: 1000 }, customers: [0, 1] }, // Ben comes down from Pro
  '2025-04': { mrrEnd: 2000, moved: { new: 1000 }, customers: [1, 2] }, // Dan
  '2025-05': { mrrEnd: 2000, customers: [2, 2] },
  '2025-06': { mrrEnd: 1000, moved: { churned: -1000 }, customers: [2, 1] }, // Ben cancels
  '2025-07': { mrrEnd: 1000, customers: [1, 1] },
  '2025-08': { mrrEnd: 2000, moved: { reactivation: 1000 }, customers: [1, 2] }, // Ben is back on Starter
  '2025-09': { mrrEnd: 2000, customers: [2, 2] },
  '2025-10': { mrrEnd: 2000, customers: [2, 2] },
  '2025-11': { mrrEnd: 2000, customers: [2, 2] },
  '2025-12': { mrrEnd: 2000, customers: [2, 2] },
};

/** Dollars on Pro alone. */
const PRO_USD: Record<string, MonthFigures> = {
  '2025-01': { mrrEnd: 3000, moved: { new: 3000 }, customers: [0, 1] }, // Ben
  '2025-02': { mrrEnd: 6000, moved: { new: 3000 }, customers: [1, 2] }, // Ada comes up from Starter
  '2025-03': { mrrEnd: 3000, moved: { churned: -3000 }, customers: [2, 1] }, // Ben goes down to Starter
  '2025-04': { mrrEnd: 6000, moved: { new: 3000 }, customers: [1, 2] }, // Eve
  '2025-05': { mrrEnd: 3000, moved: { churned: -3000 }, customers: [2, 1] }, // Eve lost to dunning
  '2025-06': { mrrEnd: 3000, customers: [1, 1] },
  '2025-07': { mrrEnd: 3000, customers: [1, 1] },
  '2025-08': { mrrEnd: 3000, customers: [1, 1] },
  '2025-09': { mrrEnd: 3000, customers: [1, 1] },
  '2025-10': { mrrEnd: 2500, moved: { contraction: -500 }, customers: [1, 1] }, // Ada goes yearly
  '2025-11': { mrrEnd: 2500, customers: [1, 1] },
  '2025-12': { mrrEnd: 2500, customers: [1, 1] },
};

/** Euros: Chloé alone. */
const EUR: Record<string, MonthFigures> = {
  '2025-01': { mrrEnd: 900, moved: { new: 900 }, customers: [0, 1] },
  '2025-02': { mrrEnd: 900, customers: [1, 1] },
  '2025-03': { mrrEnd: 900, customers: [1, 1] },
  '2025-04': { mrrEnd: 900, customers: [1, 1] },
  '2025-05': { mrrEnd: 750, moved: { contraction: -150 }, customers: [1, 1] }, // 9.00 → 90.00 / 12
  '2025-06': { mrrEnd: 750, customers: [1, 1] },
  '2025-07': { mrrEnd: 750, customers: [1, 1] },
  '2025-08': { mrrEnd: 750, customers: [1, 1] },
  '2025-09': { mrrEnd: 750, customers: [1, 1] },
  '2025-10': { mrrEnd: 750, customers: [1, 1] },
  '2025-11': { mrrEnd: 750, customers: [1, 1] },
  '2025-12': { mrrEnd: 750, customers: [1, 1] },
};

/** Cash by month, in cents: what was collected (and how many payments), refunded, and the dunning of the month's failures. */
interface MonthCash {
  collected: [number, number];
  refunded?: number;
  failed?: [number, number];
  recovered?: [number, number];
  lost?: [number, number];
}

/**
 * Every payment of the year: the renewals on the 1st (Tess's on the 15th, Ben's second
 * subscription's on the 5th), at the price of the plan the subscription is on then.
 */
const CASH_USD: Record<string, MonthCash> = {
  '2025-01': { collected: [9000, 3] }, // Ada 10, Ben 30, Tess 50 when her trial ends
  '2025-02': { collected: [9000, 3] }, // Ada moves to Pro on 10 February, settled at the next renewal
  '2025-03': { collected: [11000, 3] }, // Ada 30, Ben 30, Tess 50
  '2025-04': { collected: [13000, 5] }, // Ada 30, Ben 10, Dan 10, Eve 30, Tess 50
  '2025-05': { collected: [10000, 4], failed: [4000, 2], recovered: [1000, 1], lost: [3000, 1] }, // Dan's and Eve's renewals fail; Dan pays on the 3rd
  '2025-06': { collected: [10000, 4] }, // Ada 30, Ben 10, Dan 10, Tess 50
  '2025-07': { collected: [9000, 3] }, // Ada 30, Dan 10, Tess 50
  '2025-08': { collected: [10000, 4] }, // Ben is back: 10
  '2025-09': { collected: [10000, 4], refunded: 500 }, // $5.00 of Ada's September given back
  '2025-10': { collected: [37000, 5] }, // Ada's renewal, then a year of Pro less the unused month: 300 - 30
  '2025-11': { collected: [2000, 2] }, // Dan and Ben; Ada is yearly, Tess's period ended
  '2025-12': { collected: [2000, 2] },
};

const CASH_EUR: Record<string, MonthCash> = {
  '2025-01': { collected: [900, 1] },
  '2025-02': { collected: [900, 1] },
  '2025-03': { collected: [900, 1] },
  '2025-04': { collected: [900, 1] },
  '2025-05': { collected: [9000, 2] }, // the renewal, then a year of Starter less the unused month: 90 - 9
  '2025-06': { collected: [0, 0] },
  '2025-07': { collected: [0, 0] },
  '2025-08': { collected: [0, 0] },
  '2025-09': { collected: [0, 0] },
  '2025-10': { collected: [0, 0] },
  '2025-11': { collected: [0, 0] },
  '2025-12': { collected: [0, 0] },
};

/**
 * Dollars collected by Starter's orders alone (decision 0107): a payment counts for the plan of
 * the order it pays, so a plan change that waits for the next renewal moves the cash then.
 */
const CASH_STARTER_USD: Record<string, MonthCash> = {
  '2025-01': { collected: [1000, 1] }, // Ada
  '2025-02': { collected: [1000, 1] }, // Ada's renewal of 1 February is still Starter's
  '2025-03': { collected: [0, 0] }, // Ada renews on Pro; Ben's move waits for 1 April
  '2025-04': { collected: [2000, 2] }, // Ben, Dan
  '2025-05': { collected: [2000, 2], failed: [1000, 1], recovered: [1000, 1] }, // Ben; Dan's renewal fails, and he pays it on the 3rd
  '2025-06': { collected: [2000, 2] }, // Ben (before he cancels), Dan
  '2025-07': { collected: [1000, 1] }, // Dan
  '2025-08': { collected: [2000, 2] }, // Dan, Ben back on the 5th
  '2025-09': { collected: [2000, 2] },
  '2025-10': { collected: [2000, 2] },
  '2025-11': { collected: [2000, 2] },
  '2025-12': { collected: [2000, 2] },
};

/** Dollars collected by Pro's orders alone. */
const CASH_PRO_USD: Record<string, MonthCash> = {
  '2025-01': { collected: [3000, 1] }, // Ben
  '2025-02': { collected: [3000, 1] }, // Ben
  '2025-03': { collected: [6000, 2] }, // Ada's first Pro renewal, Ben's last
  '2025-04': { collected: [6000, 2] }, // Ada, Eve
  '2025-05': { collected: [3000, 1], failed: [3000, 1], lost: [3000, 1] }, // Ada; Eve's renewal fails and is lost
  '2025-06': { collected: [3000, 1] },
  '2025-07': { collected: [3000, 1] },
  '2025-08': { collected: [3000, 1] },
  '2025-09': { collected: [3000, 1], refunded: 500 }, // the refund of Ada's September, a Pro order
  '2025-10': { collected: [30000, 2] }, // Ada's renewal, then her year of Pro less the unused month: 300 - 30
  '2025-11': { collected: [0, 0] },
  '2025-12': { collected: [0, 0] },
};

/** Subscriptions of a plan in dollars, month by month: active at the month's end; trials started, ended, converted. */
interface MonthSubscribers {
  active: number;
  trials?: [number, number, number];
}

/** Starter's: a plan change moves a subscription from one plan's count to the other's. */
const SUBSCRIBERS_STARTER: Record<string, MonthSubscribers> = {
  '2025-01': { active: 1 }, // Ada
  '2025-02': { active: 0 }, // Ada moves to Pro on the 10th
  '2025-03': { active: 1 }, // Ben comes down from Pro on the 10th
  '2025-04': { active: 2 }, // Dan
  '2025-05': { active: 2 }, // Dan's dunning keeps him active, and he pays
  '2025-06': { active: 1 }, // Ben cancels
  '2025-07': { active: 1 },
  '2025-08': { active: 2 }, // Ben is back
  '2025-09': { active: 2 },
  '2025-10': { active: 2 },
  '2025-11': { active: 2 },
  '2025-12': { active: 2 },
};

const SUBSCRIBERS_PRO: Record<string, MonthSubscribers> = {
  '2025-01': { active: 1 }, // Ben
  '2025-02': { active: 2 }, // Ada
  '2025-03': { active: 1 }, // Ben leaves for Starter
  '2025-04': { active: 2 }, // Eve
  '2025-05': { active: 1 }, // Eve's dunning ends
  '2025-06': { active: 1 },
  '2025-07': { active: 1 },
  '2025-08': { active: 1 },
  '2025-09': { active: 1 },
  '2025-10': { active: 1 }, // Ada's yearly subscription follows her monthly one, both Pro
  '2025-11': { active: 1 },
  '2025-12': { active: 1 },
};

/** Studio's: the year's two trials. */
const SUBSCRIBERS_STUDIO: Record<string, MonthSubscribers> = {
  '2025-01': { active: 1, trials: [2, 2, 1] }, // Tom's and Tess's trials; Tess's converts on the 15th
  '2025-02': { active: 1 },
  '2025-03': { active: 1 },
  '2025-04': { active: 1 },
  '2025-05': { active: 1 },
  '2025-06': { active: 1 },
  '2025-07': { active: 1 },
  '2025-08': { active: 1 },
  '2025-09': { active: 1 },
  '2025-10': { active: 1 },
  '2025-11': { active: 0 }, // Tess's period ends on the 15th
  '2025-12': { active: 0 },
};

function expectOk(res: { status: number; text: string }, status = 200): void {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

const paid = (currency: string, charges: Array<[string, number]>, extra: Record<string, unknown> = {}) => ({
  priceType: 'PAID',
  currency,
  ...extra,
  chargeCatalogPrice: [{ charges: charges.map(([chargePeriod, amount]) => ({ chargePeriod, priceData: { amount } })) }],
});

async function publish(name: string, prices: unknown[]): Promise<string> {
  const plan = await s.api.plan(s.product.id, { name: uniqueId(name) });
  await s.api.prices(plan.identifier, prices);
  await s.api.publish(plan.identifier);
  return plan.identifier as string;
}

async function advanceTo(frozenTime: string): Promise<void> {
  expectOk(await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime }));
  expect(await untilClockReady(server, s, clockId)).toMatchObject({ status: 'ready', failure: null });
}

async function buyer(name: string): Promise<string> {
  const customerId = await s.customer({ testClockId: clockId, name });
  await s.card(customerId, CARDS.ok);
  return customerId;
}

async function subscribe(customerId: string, planIdentifier: string, currencyCode = 'USD'): Promise<string> {
  const res = await s.call('POST', '/subscriptions/create/', { planIdentifier, chargePeriod: 'MONTHLY', customerId, currencyCode });
  expectOk(res, 201);
  return res.body.id as string;
}

/** A plan change that settles nothing within the period: the renewals alone move cash. */
async function change(subscriptionId: string, planIdentifier: string, chargePeriod: string): Promise<void> {
  expectOk(await s.call('POST', `/subscriptions/${subscriptionId}/update/`, { planIdentifier, chargePeriod, probationBehaviour: 'NEXT_BILLING_CYCLE' }));
}

async function cancel(subscriptionId: string, cancellationType: 'IMMEDIATE' | 'CURRENT_PERIOD_ENDS'): Promise<void> {
  expectOk(await s.call('POST', `/subscriptions/${subscriptionId}/cancel/`, { cancellationType }));
}

async function makeDefault(customerId: string, number: string): Promise<void> {
  const method = await s.card(customerId, number);
  expectOk(await s.call('POST', `/payment-methods/${method.id}/default/`));
}

const status = async (subscriptionId: string) => (await s.call('GET', `/subscriptions/${subscriptionId}/`)).body.status as string;

/** The customer's live subscription: a trial's end or a plan change carries it on in a new record. */
async function liveSubscriptionOf(customerId: string): Promise<string> {
  const res = await s.call('GET', `/subscriptions/?customer_id=${customerId}`);
  expectOk(res);
  const [live] = res.body.results as { id: string }[];
  return live!.id;
}

async function liveYear(): Promise<void> {
  const ada = await buyer('Ada');
  const ben = await buyer('Ben');
  const chloe = await buyer('Chloé');
  const tess = await buyer('Tess');
  const tom = await buyer('Tom');
  await subscribe(ada, plans.starter);
  await subscribe(ben, plans.pro);
  await subscribe(chloe, plans.starter, 'EUR');
  const tessSub = await subscribe(tess, plans.studio);
  const tomSub = await subscribe(tom, plans.studio);
  expect([await status(tessSub), await status(tomSub)]).toEqual(['trialing', 'trialing']);

  await advanceTo('2025-01-05T00:00:00Z');
  await cancel(tomSub, 'IMMEDIATE');
  await advanceTo('2025-02-10T00:00:00Z');
  expect(await status(await liveSubscriptionOf(tess))).toBe('active');
  await change(await liveSubscriptionOf(ada), plans.pro, 'MONTHLY');
  await advanceTo('2025-03-10T00:00:00Z');
  await change(await liveSubscriptionOf(ben), plans.starter, 'MONTHLY');

  await advanceTo('2025-04-01T00:00:00Z');
  const dan = await buyer('Dan');
  const eve = await buyer('Eve');
  const danSub = await subscribe(dan, plans.starter);
  const eveSub = await subscribe(eve, plans.pro);
  await makeDefault(dan, CARDS.declined);
  await makeDefault(eve, CARDS.declined);

  await advanceTo('2025-05-01T00:00:00Z');
  expect([await status(danSub), await status(eveSub)]).toEqual(['past_due', 'past_due']);
  await change(await liveSubscriptionOf(chloe), plans.starter, 'YEARLY');
  await advanceTo('2025-05-03T00:00:00Z');
  await makeDefault(dan, CARDS.ok);
  await advanceTo('2025-05-20T00:00:00Z');
  expect([await status(danSub), await status(eveSub)]).toEqual(['active', 'canceled']);

  await advanceTo('2025-06-15T00:00:00Z');
  await cancel(await liveSubscriptionOf(ben), 'IMMEDIATE');
  await advanceTo('2025-08-05T00:00:00Z');
  await subscribe(ben, plans.starter);
  await advanceTo('2025-09-10T00:00:00Z');
  await refundPartOfLastOrder(ada, 500);
  await advanceTo('2025-10-01T00:00:00Z');
  await change(await liveSubscriptionOf(ada), plans.pro, 'YEARLY');
  await advanceTo('2025-11-01T00:00:00Z');
  const tessPaid = await liveSubscriptionOf(tess);
  await cancel(tessPaid, 'CURRENT_PERIOD_ENDS');
  await advanceTo('2026-01-01T00:00:00Z');
  expect(await status(tessPaid)).toBe('canceled');
}

async function refundPartOfLastOrder(customerId: string, amountUnits: number): Promise<void> {
  const orders = await s.call('GET', `/orders/?customer_id=${customerId}`);
  expectOk(orders);
  const [latest] = orders.body.results as { id: string }[];
  expectOk(await s.call('POST', '/refunds/', { orderId: latest!.id, amountUnits }));
}

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
  plans.starter = await publish('Starter', [paid('USD', [['MONTHLY', 10], ['YEARLY', 100]]), paid('EUR', [['MONTHLY', 9], ['YEARLY', 90]])]);
  plans.pro = await publish('Pro', [paid('USD', [['MONTHLY', 30], ['YEARLY', 300]])]);
  plans.studio = await publish('Studio', [paid('USD', [['MONTHLY', 50]], { freeTrial: true, trialPeriod: 14 })]);
  const clock = await s.call('POST', '/test-clocks/', { name: uniqueId('known-year'), frozenTime: '2025-01-01T00:00:00Z' });
  expectOk(clock, 201);
  clockId = clock.body.id;
  await liveYear();
}, 240_000);
afterAll(() => server.close());

interface Period {
  period: string;
  mrrStartUnits: number;
  mrrEndUnits: number;
  movements: Record<string, number>;
  customers: { start: number; end: number };
}

async function months(currency: string, only = ''): Promise<Period[]> {
  const res = await s.call('GET', `/analytics/mrr/?start=2025-01-01&end=2025-12-31&interval=month&currency=${currency}${only}`);
  expectOk(res);
  expect(res.body.currencies).toHaveLength(1);
  return res.body.currencies[0].periods as Period[];
}

function expected(table: Record<string, MonthFigures>) {
  let mrrStart = 0;
  return Object.entries(table).map(([period, f]) => {
    const moved = f.moved ?? {};
    const row = {
      period,
      mrrStartUnits: mrrStart,
      mrrEndUnits: f.mrrEnd,
      movements: {
        newUnits: moved.new ?? 0,
        expansionUnits: moved.expansion ?? 0,
        contractionUnits: moved.contraction ?? 0,
        churnedUnits: moved.churned ?? 0,
        reactivationUnits: moved.reactivation ?? 0,
      },
      customers: { start: f.customers[0], end: f.customers[1] },
    };
    mrrStart = f.mrrEnd;
    return row;
  });
}

describe('a known year', () => {
  it('holds every month of MRR, its movements and the paying customers, in dollars', async () => {
    expect(await months('USD')).toMatchObject(expected(USD));
  });

  it('holds every month in euros, never mixed with dollars', async () => {
    expect(await months('EUR')).toMatchObject(expected(EUR));
  });

  it("holds every month of each plan's own figures, and the product's, which sells both", async () => {
    expect(await months('USD', `&plan=${plans.starter}`)).toMatchObject(expected(STARTER_USD));
    expect(await months('USD', `&plan=${plans.pro}`)).toMatchObject(expected(PRO_USD));
    expect(await months('EUR', `&plan=${plans.starter}`)).toMatchObject(expected(EUR));
    expect(await months('USD', `&product=${s.product.identifier}`)).toMatchObject(expected(USD));
    const drill = await s.call('GET', `/analytics/mrr/movements/?start=2025-02-01&end=2025-02-28&plan=${plans.starter}`);
    expectOk(drill);
    expect(drill.body.results.map((m: { kind: string; amountUnits: number; customer: { name: string } }) => [m.customer.name, m.kind, m.amountUnits])).toEqual([
      ['Ada', 'churned', -1000],
    ]);
    const unknown = await s.call('GET', '/analytics/mrr/?start=2025-01-01&end=2025-01-31&plan=no-such-plan');
    expect([unknown.status, unknown.body.currencies]).toEqual([200, []]);
    const both = await s.call('GET', `/analytics/mrr/?plan=${plans.pro}&product=${s.product.identifier}`);
    expect([both.status, both.body.detail]).toEqual([400, expect.stringContaining('plan or product, not both')]);
    for (const path of ['/analytics/cash/', '/analytics/subscribers/']) {
      const refused = await s.call('GET', `${path}?plan=${plans.pro}&product=${s.product.identifier}`);
      expect([refused.status, refused.body.detail], path).toEqual([400, expect.stringContaining('plan or product, not both')]);
    }
  });

  it('holds the ratios of the months that moved, worked out by hand', async () => {
    const byMonth = Object.fromEntries((await months('USD')).map((p) => [p.period, p]));
    // May: Eve's $30.00 of $130.00 churns; 1 customer of 5; $100.00 left among 4.
    expect(byMonth['2025-05']).toMatchObject({
      customerChurnRateBp: 2000,
      revenueChurnRateBp: 2308,
      netRevenueRetentionBp: 7692,
      arpuUnits: 2500,
      lifetimeValueUnits: 12_500,
    });
    // October: Ada's yearly switch contracts $5.00 of $100.00; nobody leaves, so no lifetime can be told.
    expect(byMonth['2025-10']).toMatchObject({
      customerChurnRateBp: 0,
      revenueChurnRateBp: 500,
      netRevenueRetentionBp: 9500,
      arpuUnits: 2375,
      lifetimeValueUnits: null,
    });
    // November: Tess's $50.00 of $95.00 ends; 1 of 4; $45.00 among 3.
    expect(byMonth['2025-11']).toMatchObject({
      customerChurnRateBp: 2500,
      revenueChurnRateBp: 5263,
      netRevenueRetentionBp: 4737,
      arpuUnits: 1500,
      lifetimeValueUnits: 6000,
    });
    // April: only new customers; retention is of the customers at the start.
    expect(byMonth['2025-04']).toMatchObject({ customerChurnRateBp: 0, revenueChurnRateBp: 0, netRevenueRetentionBp: 10_000, arpuUnits: 2600 });
  });

  it('adds the movements up to the change of MRR, every month', async () => {
    for (const period of [...(await months('USD')), ...(await months('EUR'))]) {
      const moved = Object.values(period.movements).reduce((a, b) => a + b, 0);
      expect(period.mrrStartUnits + moved, period.period).toBe(period.mrrEndUnits);
    }
  });

  it('agrees with a rebuild from the raw tables', async () => {
    const environmentId = await environmentIdOf(server, org.organizationId, 'sandbox');
    const report = await new AnalyticsService(server.database.db, new ManualClock(new Date())).rebuild({ environmentId }, false);
    expect(report).toMatchObject({ differences: [], applied: false });
    // The cash days of every book, the plans' and the product's too (decision 0107), against the payments and invoices.
    const cash = await new CashService(server.database.db, new ManualClock(new Date())).rebuild({ environmentId }, false);
    expect(cash).toMatchObject({ differences: [], applied: false });
    expect(cash.kept).toBeGreaterThan(0);
  });
});

function expectedCash(table: Record<string, MonthCash>) {
  const tally = (pair: [number, number] | undefined) => ({ amountUnits: pair?.[0] ?? 0, count: pair?.[1] ?? 0 });
  return Object.entries(table).map(([period, c]) => {
    const refunded = c.refunded ?? 0;
    const failed = tally(c.failed);
    const recovered = tally(c.recovered);
    return {
      period,
      collected: tally(c.collected),
      refunded: { amountUnits: refunded, count: refunded ? 1 : 0 },
      netUnits: c.collected[0] - refunded,
      failed,
      recovered,
      lost: tally(c.lost),
      recoveryRateBp: failed.amountUnits === 0 ? null : Math.round((recovered.amountUnits * 10_000) / failed.amountUnits),
    };
  });
}

function expectedSubscribers(table: Record<string, MonthSubscribers>) {
  let [active, trials] = [0, 0];
  return Object.entries(table).map(([period, f]) => {
    const [started, ended, converted] = f.trials ?? [0, 0, 0];
    const row = {
      period,
      activeSubscriptionsStart: active,
      activeSubscriptionsEnd: f.active,
      trialsStart: trials,
      trialsEnd: trials + started - ended,
      trialsStarted: started,
      trialsEnded: ended,
      trialsConverted: converted,
      trialConversionRateBp: ended === 0 ? null : Math.round((converted * 10_000) / ended),
    };
    [active, trials] = [row.activeSubscriptionsEnd, row.trialsEnd];
    return row;
  });
}

describe('a known year, in cash, trials and a reporting currency', () => {
  async function cashMonths(currency: string, only = '') {
    const res = await s.call('GET', `/analytics/cash/?start=2025-01-01&end=2025-12-31&interval=month&currency=${currency}${only}`);
    expectOk(res);
    return res.body.currencies[0]?.periods ?? [];
  }

  async function subscriberMonths(only = '') {
    const res = await s.call('GET', `/analytics/subscribers/?start=2025-01-01&end=2025-12-31&interval=month&currency=USD${only}`);
    expectOk(res);
    return res.body.currencies[0]?.periods ?? [];
  }

  it('holds every month of cash collected and refunded, and of the failed payments dunning recovered and lost', async () => {
    expect(await cashMonths('USD')).toMatchObject(expectedCash(CASH_USD));
    expect(await cashMonths('EUR')).toMatchObject(expectedCash(CASH_EUR));
  });

  it('holds the trials of the year and the active subscriptions of every month', async () => {
    const res = await s.call('GET', '/analytics/subscribers/?start=2025-01-01&end=2025-12-31&interval=month&currency=USD');
    expectOk(res);
    const months = res.body.currencies[0].periods as Record<string, unknown>[];
    // Tom's trial is cancelled on 5 January, Tess's becomes paid on the 15th: one of two.
    expect(months[0]).toMatchObject({ trialsStarted: 2, trialsEnded: 2, trialsConverted: 1, trialConversionRateBp: 5000, trialsEnd: 0 });
    expect(months.slice(1).every((m) => m.trialsStarted === 0 && m.trialsEnded === 0 && m.trialConversionRateBp === null)).toBe(true);
    expect(months.map((m) => m.activeSubscriptionsEnd)).toEqual(Object.values(USD).map((f) => f.customers[1]));
  });

  it("holds every month of each plan's cash, by the orders it was paid for, and the product's, which is the whole business's", async () => {
    expect(await cashMonths('USD', `&plan=${plans.starter}`)).toMatchObject(expectedCash(CASH_STARTER_USD));
    expect(await cashMonths('USD', `&plan=${plans.pro}`)).toMatchObject(expectedCash(CASH_PRO_USD));
    expect(await cashMonths('EUR', `&plan=${plans.starter}`)).toMatchObject(expectedCash(CASH_EUR));
    expect(await cashMonths('EUR', `&plan=${plans.pro}`)).toEqual([]);
    expect(await cashMonths('USD', `&product=${s.product.identifier}`)).toEqual(await cashMonths('USD'));
    expect(await cashMonths('USD', '&plan=no-such-plan')).toEqual([]);
    const csv = await s.call('GET', `/analytics/cash/?start=2025-10-01&end=2025-10-31&interval=month&plan=${plans.pro}&format=csv`);
    expectOk(csv);
    expect(csv.text.trim().split('\r\n')[1]).toBe('USD,2025-10,2025-10-01,2025-11-01,2,30000,0,0,30000,0,0,0,0,0,0,');
  });

  it("holds every month of each plan's subscriptions and trials, and the product's, which is the whole business's", async () => {
    expect(await subscriberMonths(`&plan=${plans.starter}`)).toMatchObject(expectedSubscribers(SUBSCRIBERS_STARTER));
    expect(await subscriberMonths(`&plan=${plans.pro}`)).toMatchObject(expectedSubscribers(SUBSCRIBERS_PRO));
    expect(await subscriberMonths(`&plan=${plans.studio}`)).toMatchObject(expectedSubscribers(SUBSCRIBERS_STUDIO));
    expect(await subscriberMonths(`&product=${s.product.identifier}`)).toEqual(await subscriberMonths());
    const csv = await s.call('GET', `/analytics/subscribers/?start=2025-02-01&end=2025-02-28&interval=month&plan=${plans.starter}&format=csv`);
    expectOk(csv);
    // Chloé's euros stay on Starter; Ada's dollars leave it.
    expect(csv.text.trim().split('\r\n').slice(1)).toEqual([
      'EUR,2025-02,2025-02-01,2025-03-01,1,1,0,0,0,0,0,',
      'USD,2025-02,2025-02-01,2025-03-01,1,0,0,0,0,0,0,',
      'all,2025-02,2025-02-01,2025-03-01,2,1,0,0,0,0,0,',
    ]);
  });

  it("converts December's MRR and May's cash into dollars at the rate the seller set, stated beside them", async () => {
    expectOk(await s.call('PUT', '/analytics/settings/', { reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '1.08' }] }));
    const res = await s.call('GET', '/analytics/mrr/?start=2025-12-01&end=2025-12-31&interval=month&reporting_currency=USD');
    expectOk(res);
    // $45.00, and Chloé's €7.50 at 1.08: $8.10.
    expect(res.body.reporting.periods[0]).toMatchObject({ mrrStartUnits: 5310, mrrEndUnits: 5310 });
    expect(res.body.reporting.conversion.rates).toEqual(
      expect.arrayContaining([expect.objectContaining({ currency: 'EUR', rate: '1.08', source: 'seller' })]),
    );
    // May's cash: $100.00, and Chloé's €90.00 at 1.08 ($97.20); Dan's and Eve's $40.00 failed.
    const cash = await s.call('GET', '/analytics/cash/?start=2025-05-01&end=2025-05-31&interval=month&reporting_currency=USD');
    expectOk(cash);
    expect(cash.body.reporting.periods[0]).toMatchObject({
      collected: { amountUnits: 19_720, count: 6 },
      netUnits: 19_720,
      failed: { amountUnits: 4000, count: 2 },
      recoveryRateBp: 2500,
    });
    expect(cash.body.reporting.conversion.statement).toContain('EUR at 1.08 USD, set by');
  });
});

describe('usage in MRR', () => {
  it("counts pay-as-you-go usage at its last closed period's amount, from the renewal that billed it", async () => {
    const calls = await s.api.feature({
      name: 'API calls',
      identifier: uniqueId('calls'),
      featureType: 'METER',
      featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } },
    });
    const metered = await s.api.plan(s.product.id, { name: uniqueId('Metered') });
    expectOk(await s.call('POST', `/catalog/plans/${metered.identifier}/features/`, { planEntitlements: [{ feature: calls.id, details: { value: 0 } }] }), 201);
    await s.api.prices(metered.identifier, [
      {
        priceType: 'PAID',
        currency: 'USD',
        chargeCatalogPrice: [
          { charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 5 } }] },
          { feature: calls.identifier, paymentType: 'PAY_AS_YOU_GO', priceModel: 'FLAT', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0.01 } }] },
        ],
      },
    ]);
    await s.api.publish(metered.identifier);
    const clock = await s.call('POST', '/test-clocks/', { name: uniqueId('usage'), frozenTime: '2027-03-05T00:00:00Z' });
    expectOk(clock, 201);
    const customerId = await s.customer({ testClockId: clock.body.id, name: 'Uma' });
    await s.card(customerId, CARDS.ok);
    await subscribe(customerId, metered.identifier);
    const advance = async (frozenTime: string) => {
      expectOk(await s.call('POST', `/test-clocks/${clock.body.id}/advance/`, { frozenTime }));
      expect(await untilClockReady(server, s, clock.body.id)).toMatchObject({ status: 'ready', failure: null });
    };
    await advance('2027-03-20T00:00:00Z');
    expectOk(await s.call('POST', '/report/usage/', { customerId, featureId: calls.identifier, value: 1500, behaviour: 'DELTA' }));
    // 5 April bills March's 1,500 calls ($15.00): MRR $5.00 + $15.00. Nothing is used in April, so 5 May takes the $15.00 back.
    await advance('2027-05-06T00:00:00Z');
    const res = await s.call('GET', '/analytics/mrr/movements/?start=2027-03-01&end=2027-05-31');
    expectOk(res);
    const moved = (res.body.results as { day: string; kind: string; amountUnits: number; customerMrrAfterUnits: number }[])
      .map((m) => [m.day, m.kind, m.amountUnits, m.customerMrrAfterUnits])
      .reverse();
    expect(moved).toEqual([
      ['2027-03-05', 'new', 500, 500],
      ['2027-04-05', 'expansion', 1500, 2000],
      ['2027-05-05', 'contraction', -1500, 500],
    ]);
    const environmentId = await environmentIdOf(server, org.organizationId, 'sandbox');
    const report = await new AnalyticsService(server.database.db, new ManualClock(new Date())).rebuild({ environmentId }, false);
    expect(report.differences).toEqual([]);
  });
});
