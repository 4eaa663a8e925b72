/** What the tests of due payments on the hosted page share (pay-links.test.ts, pay-links.browser.test.ts). */
import { sql } from 'kysely';
import { catalogClient } from '../catalog-support.js';
import { CARDS } from '../commerce-support.js';
import { uniqueId } from '../harness.js';
import type { CheckoutWorld } from './support.js';

export function expectStatus(res: { status: number; text: string }, status: number): void {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

/** A customer on Basic ($10 a month) whose default card is now `card`: a change must then wait for its payment. */
export async function subscriberPaying(w: Pick<CheckoutWorld, 's'>, card: string, testClockId?: string): Promise<{ customerId: string; subscriptionId: string }> {
  const customerId = await w.s.customer(testClockId ? { testClockId } : {});
  await w.s.card(customerId, CARDS.ok);
  const created = await w.s.call('POST', '/subscriptions/create/', { planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', customerId });
  expectStatus(created, 201);
  const method = await w.s.card(customerId, card);
  expectStatus(await w.s.call('POST', `/payment-methods/${method.id}/default/`), 200);
  return { customerId, subscriptionId: created.body.id };
}

/** A published $30 monthly plan of the shop's product granting a BOOLEAN feature: an upgrade from Basic. */
export async function premiumPlan(w: CheckoutWorld): Promise<{ plan: string; feature: string }> {
  const catalog = catalogClient(w.server, w.org.sandbox.serverKey, '/sandbox');
  const feature = await catalog.feature({ name: uniqueId('Premium'), featureType: 'BOOLEAN' });
  const plan = await catalog.plan(w.s.product.id, { name: uniqueId('Premium') });
  const granted = await catalog.call('POST', `/catalog/plans/${plan.identifier}/features/`, { planEntitlements: [{ feature: feature.id, details: { value: true } }] });
  expectStatus(granted, 201);
  await catalog.prices(plan.identifier, [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 30 } }] }] }]);
  await catalog.publish(plan.identifier);
  return { plan: plan.identifier as string, feature: feature.identifier as string };
}

/** How many payments of the customer succeeded. */
export async function chargesOf(w: CheckoutWorld, customerId: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM payment_intents i JOIN customers c ON c.id = i.customer_id
     WHERE c.customer_id = ${customerId} AND i.status = 'succeeded'`.execute(w.server.database.db);
  return Number(rows[0]!.n);
}

/** A customer on a test clock whose first renewal failed: the subscription past_due, its invoice PAYMENT_FAILED (as the API shows it). */
export async function pastDueInvoice(w: Pick<CheckoutWorld, 's' | 'server'>): Promise<{ customerId: string; subscriptionId: string; invoice: Record<string, any> }> {
  const testClock = await w.s.call('POST', '/test-clocks/', { name: uniqueId('clock'), frozenTime: '2027-03-01T00:00:00Z' });
  expectStatus(testClock, 201);
  const { customerId, subscriptionId } = await subscriberPaying(w, CARDS.declined, testClock.body.id);
  expectStatus(await w.s.call('POST', `/test-clocks/${testClock.body.id}/advance/`, { frozenTime: '2027-04-01T00:30:00Z' }), 200);
  // On a shared PostgreSQL database another test's worker may run the advance: then wait for it.
  for (let tries = 0; tries < 300; tries++) {
    if ((await w.s.call('GET', `/test-clocks/${testClock.body.id}/`)).body.status === 'ready') break;
    if ((await w.server.runJobs()) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const subscription = await w.s.call('GET', `/subscriptions/${subscriptionId}/`);
  if (subscription.body.status !== 'past_due') throw new Error(`past_due expected: ${subscription.text}`);
  const invoices = await w.s.call('GET', `/invoices/?customer_id=${customerId}&status=PAYMENT_FAILED`);
  if (invoices.body.results?.length !== 1) throw new Error(`one failed invoice expected: ${invoices.text}`);
  return { customerId, subscriptionId, invoice: invoices.body.results[0] };
}
