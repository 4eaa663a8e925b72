import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { openPortalSession } from '../../src/modules/portal/queries.js';
import { environmentIdOf, uniqueId } from '../harness.js';
import { failureOf, officialClient } from '../official-client-support.js';
import { openShop } from '../commerce-support.js';
import { openLink } from './support.js';

// POST /portal/session/ (DOMAIN.md §2.13, §3.10) and what its token opens.

const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
let world: Awaited<ReturnType<typeof openShop>>;

beforeAll(async () => {
  world = await openShop({ clock });
});
afterAll(() => world?.server.close());

const createSession = (body: unknown, key = world.org.sandbox.serverKey, prefix = '/sandbox') =>
  world.server.request('POST', `${prefix}/api/v1/portal/session/`, { key, body });

const portalPage = openLink;

describe('POST /portal/session/', () => {
  it("answers a cpt- token, the customer's email and the portal URL under the sandbox prefix", async () => {
    const customerId = await world.s.customer();
    const res = await createSession({ customerId });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['customerPortalUrl', 'email', 'token']);
    expect(res.body.token).toMatch(/^cpt-[0-9a-f-]{36}:[0-9a-f-]{36}$/);
    expect(res.body.email).toBe(`${customerId}@example.com`);
    expect(res.body.customerPortalUrl).toMatch(new RegExp(`^${world.server.url}/sandbox/portal/[a-z0-9-]+/$`));
    const again = await createSession({ customer_id: customerId });
    expect(again.status).toBe(200);
    expect(again.body.token).not.toBe(res.body.token);
  });

  it("gives the reference's 400 bodies for an unknown customer and one without an email, with detail", async () => {
    const unknown = await createSession({ customerId: uniqueId('nobody') });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ customerId: ['Invalid customer id'], detail: 'Invalid customer id' });
    const customerId = uniqueId('mailless');
    expect((await world.s.call('POST', '/customers/', { customerId, name: 'No Mail' })).status).toBe(201);
    const mailless = await createSession({ customerId });
    expect(mailless.status).toBe(400);
    expect(mailless.body).toMatchObject({ customerId: ['Customer does not have an email'], detail: 'Customer does not have an email' });
  });

  it('refuses a missing customerId (400), a client key (403) and no key (401)', async () => {
    const missing = await createSession({});
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain('customerId');
    expect((await createSession({ customerId: 'x' }, world.org.sandbox.clientKey)).status).toBe(403);
    expect((await createSession({ customerId: 'x' }, null)).status).toBe(401);
  });

  it("does not find another environment's customer", async () => {
    const customerId = await world.s.customer();
    const res = await createSession({ customerId }, world.org.production.serverKey, '');
    expect(res.status).toBe(400);
    expect(res.body.customerId).toEqual(['Invalid customer id']);
  });

  it("works through the official client's portal.createSession", async () => {
    const customerId = await world.s.customer();
    const client = officialClient(world.server, world.org.sandbox.serverKey);
    const session = await client.portal.createSession({ customerId });
    expect(session.token).toMatch(/^cpt-/);
    expect(session.email).toBe(`${customerId}@example.com`);
    const failure = await failureOf(client.portal.createSession({ customerId: uniqueId('nobody') }));
    expect(failure.statusCode).toBe(400);
  });
});

describe('what a portal token opens', () => {
  it('opens only its own environment and seller, and not once expired, tampered with or its email changed', async () => {
    const customerId = await world.s.customer();
    const { token, customerPortalUrl } = (await createSession({ customerId })).body;
    const good = await portalPage(`${customerPortalUrl}?token=${token}`);
    expect(good.status).toBe(200);
    expect(good.text).toContain(`${customerId}@example.com`);

    const tampered = await portalPage(`${customerPortalUrl}?token=${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`);
    expect(tampered.status).toBe(401);
    expect(tampered.text).toContain('This link is not valid');
    expect(tampered.text).not.toContain(customerId);
    const production = await portalPage(`${customerPortalUrl.replace('/sandbox/', '/')}?token=${token}`);
    expect(production.status).toBe(401);
    const other = await world.server.createOrg();
    const otherSlug = await world.server.database.db.selectFrom('organizations').select('slug').where('id', '=', other.organizationId).executeTakeFirstOrThrow();
    const foreign = await portalPage(`${world.server.url}/sandbox/portal/${otherSlug.slug}/?token=${token}`);
    expect(foreign.status).toBe(401);
    expect(foreign.text).not.toContain(customerId);
    const none = await portalPage(customerPortalUrl);
    expect(none.status).toBe(401);

    clock.advance(60 * 60 * 1000);
    const expired = await portalPage(`${customerPortalUrl}?token=${token}`);
    expect(expired.status).toBe(401);
    expect(expired.text).toContain('This link has expired');
    expect(expired.text).not.toContain(customerId);

    const fresh = (await createSession({ customerId })).body;
    expect((await world.s.call('PATCH', `/customers/${customerId}/`, { email: `${customerId}-new@example.com` })).status).toBe(200);
    expect((await portalPage(`${fresh.customerPortalUrl}?token=${fresh.token}`)).status).toBe(401);
  });

  it('opens through openPortalSession (for other modules), with the configured lifetime', async () => {
    const customerId = await world.s.customer();
    const environmentId = await environmentIdOf(world.server, world.org.organizationId, 'sandbox');
    const opened = await openPortalSession(
      { db: world.server.database.db, clock, ttlMs: 5 * 60 * 1000 },
      { organizationId: world.org.organizationId, environmentId, environment: 'sandbox', customerId, baseUrl: world.server.url },
    );
    expect(opened.expiresAt.getTime() - clock.now().getTime()).toBe(5 * 60 * 1000);
    expect(opened.url).toBe(`${opened.customerPortalUrl}?token=${encodeURIComponent(opened.token)}`);
    expect((await portalPage(opened.url)).status).toBe(200);
  });
});
