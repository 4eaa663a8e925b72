import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentIdOf } from '../harness.js';
import { formFields, openPortalWorld, portalGet, portalPost, type PortalWorld } from './support.js';

// The portal's forms without a browser: CSRF, ownership, double submits, the actor of events.

let w: PortalWorld;

beforeAll(async () => {
  w = await openPortalWorld();
});
afterAll(() => w?.server.close());

const get = portalGet;
const post = portalPost;

async function actorsOf(type: string, objectId: string): Promise<(string | null)[]> {
  const environmentId = await environmentIdOf(w.server, w.org.organizationId, 'sandbox');
  const rows = await w.server.database.db
    .selectFrom('events')
    .select(['actor', 'payload'])
    .where('environment_id', '=', environmentId)
    .where('type', '=', type)
    .orderBy('seq')
    .execute();
  return rows.filter((r) => JSON.stringify(r.payload).includes(objectId)).map((r) => r.actor);
}

describe('the portal page', () => {
  it("trades the link's token for a session cookie on the first visit, and keeps it out of every URL after (decision 0054)", async () => {
    const customerId = await w.customer();
    const id = await w.subscribe(customerId, w.s.plans.basic);
    const link = await w.portalLink(customerId);
    const path = new URL(link).pathname;
    const first = await fetch(`${link}&done=cancel`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`${path}?done=cancel`);
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^billow_portal=cpt-[^;]+; Max-Age=\d+; Path=\/sandbox\/portal\/[^/;]+\/; HttpOnly; SameSite=Lax$/);
    const session = { cookie: cookie.split(';')[0]! };

    const page = await fetch(`${w.server.url}${path}`, { redirect: 'manual', headers: session });
    const text = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(text).not.toContain('cpt-');
    expect(text).not.toContain('token=');
    expect((await fetch(`${w.server.url}${path}`, { redirect: 'manual' })).status).toBe(401);

    const cancelled = await fetch(`${w.server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...session, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...formFields(text, 'cancel'), subscription: id }).toString(),
    });
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe(`${path}?done=cancel`);
  });

  it('is served with the strict policy, no inline script or style, and escapes what it shows', async () => {
    const customerId = await w.customer();
    expect((await w.s.call('PATCH', `/customers/${customerId}/`, { name: '<script>alert(1)</script>' })).status).toBe(200);
    const page = await get(await w.portalLink(customerId));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).not.toMatch(/<style|style="|<script(?! src)/);
    const css = /href="([^"]+\.css)"/.exec(page.text)![1]!;
    expect((await fetch(`${w.server.url}${css}`)).status).toBe(200);
  });

  it('refuses a form without its CSRF token (403) and changes nothing', async () => {
    const customerId = await w.customer();
    const id = await w.subscribe(customerId, w.s.plans.basic);
    const link = await w.portalLink(customerId);
    const fields = formFields((await get(link)).text, 'cancel');
    const { csrf_token: _csrf, ...without } = fields;
    const refused = await post(link, { ...without, subscription: id });
    expect(refused.status).toBe(403);
    expect((await post(link, { ...fields, csrf_token: 'forged', subscription: id })).status).toBe(403);
    expect((await w.subscription(id)).endDate).toBeNull();
  });

  it("answers 404 for another customer's subscription, card, invoice and PDF", async () => {
    const mine = await w.customer();
    const theirs = await w.customer();
    const theirSubscription = await w.subscribe(theirs, w.s.plans.basic);
    const theirCard = await w.s.card(theirs);
    const theirInvoice = (await w.s.call('GET', `/invoices/?customer_id=${theirs}`)).body.results[0].id;
    await w.subscribe(mine, w.s.plans.basic);
    const link = await w.portalLink(mine);
    const page = (await get(link)).text;
    expect(page).not.toContain(theirInvoice);
    const cancel = await post(link, { ...formFields(page, 'cancel'), subscription: theirSubscription });
    expect(cancel.status).toBe(404);
    expect((await w.subscription(theirSubscription)).endDate).toBeNull();
    expect((await post(link, { ...formFields(page, 'cancel'), action: 'make_default', method: String(theirCard.id) })).status).toBe(404);
    expect((await post(link, { ...formFields(page, 'cancel'), action: 'pay_invoice', invoice: theirInvoice })).status).toBe(404);
    const url = new URL(link);
    expect((await get(`${url.origin}${url.pathname}invoices/${theirInvoice}.pdf${url.search}`)).status).toBe(404);

    expect((await w.s.call('POST', '/charges/', { planIdentifier: w.s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId: theirs })).status).toBeLessThan(300);
    const licenseKey = (await w.s.call('GET', `/orders/?customer_id=${theirs}`)).body.results[0].license[0].licenseKey;
    const activated = (await w.s.call('POST', '/license/activate/', { licenseKey, instanceName: 'Their laptop' })).body;
    const deactivate = { ...formFields(page, 'cancel'), action: 'deactivate', license: activated.license.id, instance: activated.instanceId };
    expect((await post(link, deactivate)).status).toBe(404);
    expect((await w.s.call('POST', '/license/validate/', { licenseKey, instanceId: activated.instanceId })).body.valid).toBe(true);
  });

  it('shows production customers that no card can be added while no provider is configured', async () => {
    const customerId = `prod-${Date.now()}`;
    const key = w.org.production.serverKey;
    expect((await w.server.request('POST', '/api/v1/customers/', { key, body: { customerId, email: `${customerId}@example.com` } })).status).toBe(201);
    const session = (await w.server.request('POST', '/api/v1/portal/session/', { key, body: { customerId } })).body;
    expect(session.customerPortalUrl).not.toContain('/sandbox/');
    const page = await get(`${session.customerPortalUrl}?token=${session.token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('none is configured');
    expect(page.text).not.toContain('Sandbox');
  });

  it('cancels at period end as the customer, once for a double submit, recorded with the actor customer_portal; then resumes', async () => {
    const customerId = await w.customer();
    const id = await w.subscribe(customerId, w.s.plans.basic);
    const link = await w.portalLink(customerId);
    const fields = { ...formFields((await get(link)).text, 'cancel'), feedback: 'TOO_EXPENSIVE', comment: 'Costs too much' };
    const first = await post(link, fields);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toContain('done=cancel');
    const second = await post(link, fields);
    expect(second.status).toBe(303);
    expect(second.headers.get('location')).toContain('done=duplicate');
    const cancelled = await w.subscription(id);
    expect(cancelled).toMatchObject({ status: 'active', cancellationReason: 'CANCELLED_BY_CUSTOMER', cancellationFeedback: 'TOO_EXPENSIVE', cancellationComment: 'Costs too much' });
    expect(cancelled.endDate).not.toBeNull();
    expect(await actorsOf('subscription.updated', id)).toEqual(['customer_portal']);

    const page = (await get(`${link}&done=cancel`)).text;
    expect(page).toContain('Your subscription is cancelled');
    const resumed = await post(link, formFields(page, 'resume'));
    expect(resumed.status).toBe(303);
    expect(await w.subscription(id)).toMatchObject({ endDate: null, canceledAt: null, cancellationReason: null });
    expect(await actorsOf('subscription.updated', id)).toEqual(['customer_portal', 'customer_portal']);
  });

  it('changes plan once, and charges once, when the confirmation is sent twice at the same time', async () => {
    const clockId = await w.testClock('2027-01-01T00:00:00Z');
    const customerId = await w.customer({ clockId });
    const id = await w.subscribe(customerId, w.s.plans.basic);
    await w.advance(clockId, '2027-01-16T12:00:00Z');
    const link = await w.portalLink(customerId);
    const preview = await get(`${link}&change=${id}&choice=${encodeURIComponent(`${w.s.plans.pro}|MONTHLY`)}`);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('Confirm and pay $5.00');
    const fields = formFields(preview.text, 'change_plan');
    const answers = await Promise.all([post(link, fields), post(link, fields)]);
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    expect(answers.map((a) => new URL(a.headers.get('location')!, w.server.url).searchParams.get('done')).sort()).toEqual(['change_plan', 'duplicate']);
    const invoices = (await w.s.call('GET', `/invoices/?customer_id=${customerId}`)).body.results;
    expect(invoices.map((i: any) => i.amountTotalUnits)).toEqual([500, 1000]);
    expect((await w.s.call('GET', `/subscriptions/?customer_id=${customerId}`)).body.results.map((r: any) => r.plan.identifier)).toEqual([w.s.plans.pro]);
  });

  it('offers only the product’s published plans: another plan, or a one-time period, is refused and changes nothing', async () => {
    const customerId = await w.customer();
    const id = await w.subscribe(customerId, w.s.plans.basic);
    const link = await w.portalLink(customerId);
    const other = await w.s.api.product();
    const foreign = await w.s.api.plan(other.id, {});
    const page = await get(`${link}&change=${id}&choice=${encodeURIComponent(`${foreign.identifier}|MONTHLY`)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('not available for this subscription');
    const fields = { ...formFields(page.text, 'cancel'), action: 'change_plan', plan: w.s.plans.lifetime, period: 'ONE_TIME' };
    expect((await post(link, fields)).status).toBe(400);
    expect((await w.subscription(id)).status).toBe('active');
  });

  it("lists the links of a one-time purchase's plan, web addresses only", async () => {
    const plan = await w.s.api.plan(w.s.product.id, {
      name: 'Lifetime with docs',
      links: [{ name: 'User guide', url: 'https://docs.example/guide' }, { name: 'Sneaky', url: 'javascript:alert(1)' }],
    });
    await w.s.api.prices(plan.identifier, [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'ONE_TIME', priceData: { amount: 19 } }] }] }]);
    await w.s.api.publish(plan.identifier);
    const customerId = await w.customer();
    expect((await w.s.call('POST', '/charges/', { planIdentifier: plan.identifier, chargePeriod: 'ONE_TIME', customerId })).status).toBeLessThan(300);
    const page = (await get(await w.portalLink(customerId))).text;
    expect(page).toContain('<a href="https://docs.example/guide" rel="noopener noreferrer">User guide</a>');
    expect(page).not.toContain('javascript:');
  });

  it('keeps the API as the actor-less cause of its own events', async () => {
    const customerId = await w.customer();
    const id = await w.subscribe(customerId, w.s.plans.basic);
    expect(await actorsOf('subscription.created', id)).toEqual([null]);
  });

  it('saves the billing address and tax id, printed on the next invoice', async () => {
    const customerId = await w.customer();
    const link = await w.portalLink(customerId);
    const fields = { ...formFields((await get(link)).text, 'billing'), line1: '1 Main St', city: 'Berlin', postal_code: '10115', country: 'DE', tax_id: 'DE 136 695 976' };
    expect((await post(link, fields)).status).toBe(303);
    const customer = (await w.s.call('GET', `/customers/${customerId}/`)).body;
    expect(customer.billingAddress).toMatchObject({ line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' });
    expect(customer.taxIds).toMatchObject([{ type: 'eu_vat', value: 'DE136695976', country: 'DE' }]);
    await w.subscribe(customerId, w.s.plans.basic);
    const invoice = (await w.s.call('GET', `/invoices/?customer_id=${customerId}`)).body.results[0];
    expect(invoice.buyer).toMatchObject({ taxId: 'DE136695976', billingAddress: { city: 'Berlin' } });
    const page = (await get(link)).text;
    expect(page).toContain('value="DE136695976"');
  });

  it('refuses a malformed tax id in the page\'s error style, escaped, saving nothing; an empty field removes the id', async () => {
    const customerId = await w.customer();
    const link = await w.portalLink(customerId);
    const fields = { ...formFields((await get(link)).text, 'billing'), line1: '2 Rue X', city: 'Paris', country: 'FR', tax_id: 'FR40303265046<i>' };
    const refused = await post(link, fields);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('<div class="problem" role="alert">Your billing details were not saved: &quot;FR40303265046&lt;i&gt;&quot; is not a valid tax ID of France.');
    expect(refused.text).not.toContain('<i>');
    const unchanged = (await w.s.call('GET', `/customers/${customerId}/`)).body;
    expect(unchanged.billingAddress?.city ?? null).not.toBe('Paris');
    expect(unchanged.taxIds).toBeUndefined();
    expect((await post(link, { ...fields, tax_id: 'FR40303265045' })).status).toBe(303);
    expect((await w.s.call('GET', `/customers/${customerId}/`)).body.taxIds).toMatchObject([{ value: 'FR40303265045' }]);
    const page = (await get(link)).text;
    expect((await post(link, { ...formFields(page, 'billing'), tax_id: '' })).status).toBe(303);
    expect((await w.s.call('GET', `/customers/${customerId}/`)).body.taxIds).toBeUndefined();
  });

  it('previews a change of a French business as a reverse charge, and of a French consumer with French VAT', async () => {
    const previewOf = async (taxIds: unknown[]) => {
      const customerId = await w.customer();
      expect((await w.s.call('PATCH', `/customers/${customerId}/`, { billingAddress: { country: 'FR' }, taxIds })).status).toBe(200);
      const id = await w.subscribe(customerId, w.s.plans.basic);
      const preview = await get(`${await w.portalLink(customerId)}&change=${id}&choice=${encodeURIComponent(`${w.s.plans.pro}|MONTHLY`)}`);
      expect(preview.status).toBe(200);
      return preview.text;
    };
    const business = await previewOf([{ value: 'FR40303265045' }]);
    expect(business).toContain('VAT 0 % (reverse charge: you account for the VAT)');
    expect(business).not.toContain('Tax (20 %)');
    const consumer = await previewOf([]);
    expect(consumer).toContain('Tax (20 %)');
    expect(consumer).not.toContain('VAT 0 % (reverse charge');
  });

  it('refuses to remove the default card, and a form the portal does not know', async () => {
    const customerId = await w.customer();
    const link = await w.portalLink(customerId);
    const page = (await get(link)).text;
    const methods = (await w.s.call('GET', `/payment-methods/?customer_id=${customerId}`)).body.results;
    const refused = await post(link, { ...formFields(page, 'billing'), action: 'remove_card', method: String(methods[0].id) });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('default card cannot be removed');
    expect((await post(link, { ...formFields(page, 'billing'), action: 'drop_tables' })).status).toBe(400);
  });
});
