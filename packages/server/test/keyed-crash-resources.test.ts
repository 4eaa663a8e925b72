/**
 * The keyed writes of the catalog, discounts, promotions, test clocks, webhook endpoints,
 * payment methods, licenses, media and the portal, killed (SIGKILL) between their effect and
 * the keeping of their answer (failpoint idempotency.before-answer), then retried with their
 * Idempotency-Key on a new process: the retry replays the answer committed with the effect,
 * and the effect exists once (decision 0051). keyed-crash.test.ts does the same for the
 * purchases, customers and usage.
 */
import { describe, expect, it } from 'vitest';
import { DATABASE_KIND } from '../../cli/test/support.js';
import { crashEachInTurn, crashWorkspaces, list, okWith, startWithFailpoints, type Call, type KeyedCase } from './crash-workspaces.js';
import { Receiver } from './webhook-support.js';

const workspace = crashWorkspaces();
// The webhook endpoints' receiver is on this machine.
const ENV = { BILLOW_WEBHOOK_SANDBOX_PRIVATE_TARGETS: 'true' };
/** The setup's process delivers (the test support turns the dispatcher off) to have a delivery to resend. */
const DISPATCHING = { ...ENV, BILLOW_WEBHOOK_POLL_INTERVAL_MS: '50' };
const METER = { featureType: 'METER', featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'seat', plural: 'seats' } } };
const oneTime = { priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'ONE_TIME', priceData: { amount: 49 } }] }] };
const monthly = { priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 30 } }] }] };
const card = (customerId: string) => ({ customerId, cardNumber: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123' });

async function firstLog(call: Call): Promise<string> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const logs = await list(call, '/webhook/logs/');
    if (logs.length > 0) return logs[0].id as string;
  }
  throw new Error('no webhook delivery was logged');
}

/** A licensed plan bought once (its key activated once), and the records the cases act on. */
async function shop(call: Call, hook: string) {
  const ok = okWith(call);
  const endpoint = (await ok('POST', '/webhook/endpoints/', { url: hook })).id as string;
  await ok('POST', '/catalog/products/', { name: 'Keyed', identifier: 'keyed', taxCode: 'saas' });
  await ok('POST', '/catalog/plans/', { name: 'Licensed', product: 'keyed', identifier: 'licensed', license: { enabled: true, activationLimitEnabled: false } });
  await ok('POST', '/catalog/plans/licensed/prices/bulk/', { prices: [oneTime] });
  await ok('POST', '/catalog/plans/licensed/publish/', {});
  for (const customerId of ['licensee', 'carded', 'visitor']) await ok('POST', '/customers/', { customerId, email: `${customerId}@example.com` });
  await ok('POST', '/payment-methods/', card('licensee'));
  const { orderId } = await ok('POST', '/charges/', { planIdentifier: 'licensed', chargePeriod: 'ONE_TIME', customerId: 'licensee' });
  const licenseKey = (await ok('GET', `/orders/${orderId}/`)).license[0].licenseKey as string;
  const instance = (await ok('POST', '/license/activate/', { licenseKey, instanceName: 'first' })).instanceId as string;
  const discount = (await ok('POST', '/discounts/', { name: 'Old', code: 'OLD10', discountType: 'PERCENTAGE', percentOff: 10 })).id as string;
  const clock = (await ok('POST', '/test-clocks/', { name: 'advanced', frozenTime: '2026-01-01T00:00:00.000Z' })).id as string;
  return { hook, endpoint, licenseKey, instance, discount, clock, log: await firstLog(call), since: new Date(Date.now() - 3_600_000).toISOString() };
}

const idsOf = async (call: Call, path: string) => (await list(call, path)).map((row) => row.id);

function catalogCases(): KeyedCase[] {
  const plan = '/catalog/plans/draft';
  return [
    {
      name: 'products create',
      path: '/catalog/products/',
      body: { name: 'Crashed', identifier: 'crashed', taxCode: 'saas' },
      status: 201,
      once: async (call, answer) => expect(await idsOf(call, '/catalog/products/?search=Crashed')).toEqual([answer.id]),
    },
    {
      name: 'features create',
      path: '/catalog/features/',
      body: { name: 'Seats', identifier: 'seats', ...METER },
      status: 201,
      once: async (call, answer) => expect((await call('GET', '/catalog/features/seats/')).body.id).toBe(answer.id),
    },
    {
      name: 'plans create',
      path: '/catalog/plans/',
      body: { name: 'Draft', product: 'keyed', identifier: 'draft' },
      status: 201,
      once: async (call, answer) => expect(await idsOf(call, `${plan}/versions/`)).toEqual([answer.id]),
    },
    {
      name: 'plan entitlements add',
      path: `${plan}/features/`,
      body: { planEntitlements: [{ feature: 'seats', details: { value: 5 } }] },
      status: 201,
      once: async (call) => expect(await list(call, `${plan}/features/`)).toHaveLength(1),
    },
    {
      name: 'plan prices replace',
      path: `${plan}/prices/bulk/`,
      body: { prices: [monthly] },
      status: 200,
      once: async (call, answer) => expect(await idsOf(call, `${plan}/prices/`)).toEqual(answer.prices.map((p: { id: string }) => p.id)),
    },
    {
      name: 'plan publish',
      path: `${plan}/publish/`,
      body: {},
      status: 200,
      once: async (call, answer) => {
        expect(answer).toEqual({ status: 'published', identifier: 'draft', version: 1 });
        expect(await list(call, `${plan}/versions/`)).toHaveLength(1);
      },
    },
  ];
}

function sellerCases(made: Awaited<ReturnType<typeof shop>>): KeyedCase[] {
  return [
    {
      name: 'discounts create',
      path: '/discounts/',
      body: { name: 'Crash', code: 'CRASH10', discountType: 'PERCENTAGE', percentOff: 10 },
      status: 201,
      once: async (call, answer) => expect(await idsOf(call, '/discounts/?search=CRASH10')).toEqual([answer.id]),
    },
    {
      name: 'discounts archive',
      path: `/discounts/${made.discount}/archive/`,
      body: undefined,
      status: 200,
      once: async (call, answer) => expect((await call('GET', `/discounts/${made.discount}/`)).body).toEqual(answer),
    },
    {
      name: 'promotion rules create',
      path: '/promotion-rules/',
      body: { name: 'Crash sale', productId: 'keyed' },
      status: 201,
      once: async (call, answer) => expect(await idsOf(call, '/promotion-rules/')).toEqual([answer.id]),
    },
    {
      name: 'test clocks create',
      path: '/test-clocks/',
      body: { name: 'crashed', frozenTime: '2026-01-01T00:00:00.000Z' },
      status: 201,
      once: async (call, answer) => expect((await list(call, '/test-clocks/')).filter((c) => c.name === 'crashed').map((c) => c.id)).toEqual([answer.id]),
    },
    {
      name: 'test clocks advance',
      path: `/test-clocks/${made.clock}/advance/`,
      body: { frozenTime: '2026-01-02T00:00:00.000Z' },
      status: 200,
      once: async (_call, answer) => expect(answer).toMatchObject({ id: made.clock, status: 'advancing' }),
    },
    {
      name: 'payment methods create',
      path: '/payment-methods/',
      body: card('carded'),
      status: 201,
      once: async (call, answer) => expect(await idsOf(call, '/payment-methods/?customer_id=carded')).toEqual([answer.id]),
    },
  ];
}

function webhookCases(made: Awaited<ReturnType<typeof shop>>): KeyedCase[] {
  const endpoint = `/webhook/endpoints/${made.endpoint}`;
  return [
    {
      name: 'webhook endpoints create',
      path: '/webhook/endpoints/',
      body: { url: `${made.hook}/created` },
      status: 201,
      once: async (call, answer) => {
        // A replay, which never shows the secret again.
        expect(answer.secret).toBeNull();
        expect((await list(call, '/webhook/endpoints/')).filter((e) => e.url === `${made.hook}/created`).map((e) => e.id)).toEqual([answer.id]);
      },
    },
    {
      name: 'webhook secret rotate',
      path: `${endpoint}/rotate-secret/`,
      body: {},
      status: 200,
      once: async (_call, answer) => expect(answer).toMatchObject({ id: made.endpoint, secret: null }),
    },
    {
      name: 'webhook replay',
      path: `${endpoint}/replay/`,
      body: { since: made.since },
      status: 202,
      once: async (_call, answer) => expect(answer.queued).toBeGreaterThan(0),
    },
    {
      name: 'webhook resend',
      path: `/webhook/logs/${made.log}/resend/`,
      body: undefined,
      status: 202,
      once: async (_call, answer) => expect(answer).toEqual({ queued: 1 }),
    },
  ];
}

function customerCases(made: Awaited<ReturnType<typeof shop>>): KeyedCase[] {
  return [
    {
      name: 'license activate',
      path: '/license/activate/',
      body: { licenseKey: made.licenseKey, instanceName: 'crashed' },
      status: 201,
      once: async (_call, answer) => expect(answer.license.activationUsage).toBe(2),
    },
    {
      name: 'license deactivate',
      path: '/license/deactivate/',
      body: { licenseKey: made.licenseKey, instanceId: made.instance },
      status: 200,
      once: async (_call, answer) => expect(answer.message).toBe('License instance deactivated successfully.'),
    },
    {
      name: 'media upload',
      path: '/media/',
      body: { fileName: 'crash.png', fileType: 'image/png' },
      status: 200,
      once: async (_call, answer) => expect(answer.fileKey).toMatch(/crash\.png$/),
    },
    {
      name: 'portal session',
      path: '/portal/session/',
      body: { customerId: 'visitor' },
      status: 200,
      once: async (_call, answer) => expect(answer).toMatchObject({ token: expect.stringMatching(/^cpt-/), email: 'visitor@example.com' }),
    },
  ];
}

/**
 * Every case runs on PostgreSQL. The embedded database runs one case of each way a route keeps its answer
 * (in its service's transaction, in a transaction opened for the key around one statement, an archive,
 * a test clock's advance, a secret shown once, a license key): a process start there costs
 * about ten seconds of CI's thirty minutes, and the keeping is the same code on both databases.
 */
const ON_THE_EMBEDDED_DATABASE = new Set(['products create', 'promotion rules create', 'discounts archive', 'test clocks advance', 'webhook endpoints create', 'license activate']);

describe(`more keyed writes killed between their effect and their answer on ${DATABASE_KIND}`, () => {
  it('each retry replays the answer committed with the effect, at once, and the effect exists once', async () => {
    const w = await workspace();
    const receiver = await Receiver.start();
    try {
      const setup = await startWithFailpoints(w, null, DISPATCHING);
      const made = await shop(setup.call, receiver.url);
      await setup.server.stop();

      const table = [...catalogCases(), ...sellerCases(made), ...webhookCases(made), ...customerCases(made)];
      const run = DATABASE_KIND === 'postgres' ? table : table.filter((item) => ON_THE_EMBEDDED_DATABASE.has(item.name));
      await crashEachInTurn(w, run.map((item) => ({ ...item, replayed: true })), ENV);
    } finally {
      await receiver.close();
    }
  }, 1_800_000);
});
