/**
 * The two keyed writes that keyed-crash-resources.test.ts cannot send with the sandbox's key:
 * saving a Stripe card in production (the card is attached at Stripe before the save) and
 * provisioning an organization with a partner key (its keys are shown once). Each is killed
 * (SIGKILL) between its effect and the keeping of its answer, then retried with its
 * Idempotency-Key on a new process: the retry replays the answer committed with the effect,
 * and the effect exists once (decision 0051).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KIND, api, printedCredentials, runOk, type StartedServer } from '../../cli/test/support.js';
import { crashEachInTurn, crashWorkspaces, list, okWith, startWithFailpoints, type Call, type KeyedCase } from './crash-workspaces.js';
import { StripeStandIn } from './stripe/stand-in.js';
import { LIVE_KEY, WEBHOOK_SECRET } from './stripe/support.js';

const workspace = crashWorkspaces();
let stand: StripeStandIn;
beforeAll(async () => {
  stand = await new StripeStandIn().start();
});
afterAll(() => stand?.close());

const production = (server: StartedServer): Call => {
  const key = printedCredentials(server.stdout()).production.serverKey;
  return (method, path, body, headers) => api(`${server.url}/api/v1${path}`, method, { key, body, headers });
};

const asPartner =
  (partnerKey: string) =>
  (server: StartedServer): Call =>
  (method, path, body, headers) =>
    api(`${server.url}/api/v1${path}`, method, { body, headers: { ...headers, 'x-billow-partner-key': partnerKey } });

function cases(partnerKey: string): KeyedCase[] {
  return [
    {
      name: 'stripe payment methods attach',
      path: '/payment-methods/stripe/',
      body: { customerId: 'stripe-buyer', stripePaymentMethod: 'pm_card_visa_keyedcrash' },
      status: 201,
      caller: production,
      once: async (call, answer) => {
        expect(await list(call, '/payment-methods/?customer_id=stripe-buyer')).toEqual([expect.objectContaining({ id: answer.id })]);
        // Attached at Stripe once: the retry was a replay and asked Stripe nothing.
        const attaching = stand.requests.filter((r) => r.path === '/v1/payment_methods/pm_card_visa_keyedcrash/attach');
        expect(attaching).toHaveLength(1);
      },
    },
    {
      name: 'partner organizations provision',
      path: '/partner/organizations/',
      body: { external_id: 'crash-co', email: 'owner@crash.example', business_name: 'Crash Co' },
      status: 201,
      caller: asPartner(partnerKey),
      once: async (call, answer) => {
        // A replay never shows the keys again.
        expect(answer).toMatchObject({ partnerExternalId: 'crash-co', serverKey: null, sandboxServerKey: null });
        const provisioned = await call('GET', '/partner/organizations/?external_id=crash-co');
        expect(provisioned.body.results.map((org: { organizationSlug: string }) => org.organizationSlug)).toEqual([answer.organizationSlug]);
      },
    },
  ];
}

describe(`keyed production and partner writes killed between their effect and their answer on ${DATABASE_KIND}`, () => {
  it('each retry replays the answer committed with the effect, and the effect exists once', async () => {
    const w = await workspace();
    const env = { BILLOW_STRIPE_API_URL: stand.url };
    const setup = await startWithFailpoints(w, null, env);
    const ok = okWith(production(setup.server));
    await ok('PUT', '/payment-provider/', { provider: 'stripe', stripeSecretKey: LIVE_KEY, stripeWebhookSecret: WEBHOOK_SECRET });
    await ok('POST', '/customers/', { customerId: 'stripe-buyer', email: 'stripe-buyer@example.com' });
    await setup.server.stop();
    const partnerKey = JSON.parse(await runOk(['partner-key', 'create', '--name', 'Crash partner', '--json'], w.env)).partnerKey as string;

    await crashEachInTurn(w, cases(partnerKey).map((item) => ({ ...item, replayed: true })), env);
  }, 900_000);
});
