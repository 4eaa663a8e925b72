import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { catalogClient } from '../catalog-support.js';
import { CARDS } from '../commerce-support.js';
import { uniqueId, type TestOrg } from '../harness.js';
import { csrfOf, getPage, openCheckoutWorld, payWith, postForm, type CheckoutWorld } from './support.js';

// Buy links by the product's identifier (issue 25, item 10; decision 0059):
// /buy/{organization slug}/{product identifier}/, beside /buy/{product id}/.

const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
let w: CheckoutWorld;

beforeAll(async () => {
  w = await openCheckoutWorld({ clock });
});
afterAll(() => w?.server.close());

async function slugOf(org: TestOrg): Promise<string> {
  const row = await w.server.database.db.selectFrom('organizations').select('slug').where('id', '=', org.organizationId).executeTakeFirstOrThrow();
  return row.slug;
}

const visit = (path: string) => fetch(`${w.server.url}${path}`, { redirect: 'manual' });

/** The session a buy link made, read with the seller's key. */
async function sessionOf(location: string, key = w.org.sandbox.serverKey) {
  const id = /cs_[A-Za-z0-9]+/.exec(location)![0];
  return (await w.server.request('GET', `/sandbox/api/v1/checkout/sessions/${id}/`, { key })).body;
}

describe('buy links by product identifier', () => {
  it('/buy/{slug}/{identifier}/ sells the product, and the buyer can pay; /buy/{productId}/ still works', async () => {
    const slug = await slugOf(w.org);
    const query = `?plan_identifier=${w.s.plans.basic}&charge_period=MONTHLY`;
    const res = await visit(`/sandbox/buy/${slug}/${w.s.product.identifier}/${query}`);
    expect(res.status, await res.clone().text()).toBe(303);
    const location = res.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${w.server.url}/sandbox/checkout/cs_[A-Za-z0-9]{48}/$`));
    const page = await getPage(location);
    expect(page.status).toBe(200);
    expect(page.text).toContain(w.s.product.name);
    expect((await sessionOf(location)).product.id).toBe(w.s.product.id);
    expect((await postForm(location, payWith(csrfOf(page.text), CARDS.ok))).status).toBe(303);

    const byId = await visit(`/sandbox/buy/${w.s.product.id}/${query}`);
    expect(byId.status).toBe(303);
    expect((await sessionOf(byId.headers.get('location')!)).product.id).toBe(w.s.product.id);
  });

  it('answers a clear 404 page for an unknown identifier or organization, the other environment, and an archived product', async () => {
    const slug = await slugOf(w.org);
    const archived = await w.s.api.product();
    expect((await w.s.call('DELETE', `/catalog/products/${archived.id}/`)).status).toBe(204);
    for (const path of [
      `/sandbox/buy/${slug}/no-such-product/`,
      `/sandbox/buy/no-such-org-${uniqueId('x')}/${w.s.product.identifier}/`,
      `/buy/${slug}/${w.s.product.identifier}/`,
      `/sandbox/buy/${slug}/${archived.identifier}/`,
    ]) {
      const res = await visit(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const text = await res.text();
      expect(text, path).toContain('Product not found');
      expect(text).toContain('This link names no product on sale here. Check the link, or ask the seller for a new one.');
    }
  });

  it("is unambiguous: two organizations' products with the same identifier are each sold by their own slug", async () => {
    const other = await w.server.createOrg();
    const catalog = catalogClient(w.server, other.sandbox.serverKey, '/sandbox');
    const made = await catalog.call('POST', '/catalog/products/', { name: 'Same identifier elsewhere', identifier: w.s.product.identifier, taxCode: 'saas' });
    expect(made.status, made.text).toBe(201);
    const plan = await catalog.plan(made.body.id);
    await catalog.prices(plan.identifier, [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 5 } }] }] }]);
    await catalog.publish(plan.identifier);

    const theirs = await visit(`/sandbox/buy/${await slugOf(other)}/${w.s.product.identifier}/?charge_period=MONTHLY`);
    expect(theirs.status, await theirs.clone().text()).toBe(303);
    expect((await sessionOf(theirs.headers.get('location')!, other.sandbox.serverKey)).product.id).toBe(made.body.id);
    const ours = await visit(`/sandbox/buy/${await slugOf(w.org)}/${w.s.product.identifier}/?plan_identifier=${w.s.plans.basic}&charge_period=MONTHLY`);
    expect((await sessionOf(ours.headers.get('location')!)).product.id).toBe(w.s.product.id);
  });
});
