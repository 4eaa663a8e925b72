import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShop, type Shop } from './commerce-support.js';
import type { TestServer } from './harness.js';

/** DOMAIN.md §2.1: a customer with an active subscription can't be archived, unless ?cancel_subscriptions=true (ours). */
let server: TestServer;
let s: Shop;

beforeAll(async () => ({ server, s } = await openShop()));
afterAll(() => server.close());

const archive = (customerId: string, query = '') => s.call('DELETE', `/customers/${customerId}/${query}`);
const subscriptionOf = async (id: string) => (await s.call('GET', `/subscriptions/${id}/`)).body;

async function subscribed(plan: 'basic' | 'trial' | 'free' = 'basic') {
  const customerId = await s.customer();
  await s.card(customerId);
  const res = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans[plan], chargePeriod: 'MONTHLY', customerId });
  expect(res.status, res.text).toBe(201);
  return { customerId, subscriptionId: res.body.id as string };
}

async function eventsAbout(subscriptionId: string) {
  const rows = await server.database.db.selectFrom('events').select(['type', 'payload']).orderBy('seq').execute();
  return rows.filter((row) => (row.payload as any).data?.object?.id === subscriptionId || (row.payload as any).data?.id === subscriptionId);
}

describe('archiving a customer with subscriptions', () => {
  it.each(['basic', 'trial', 'free'] as const)('is refused with a %s subscription, and changes nothing', async (plan) => {
    const { customerId, subscriptionId } = await subscribed(plan);
    const before = await subscriptionOf(subscriptionId);
    const eventsBefore = (await eventsAbout(subscriptionId)).length;

    const res = await archive(customerId);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('customer_has_active_subscriptions');
    expect(res.body.detail).toMatch(/active subscription/);
    expect(res.body.detail).toMatch(/cancel_subscriptions=true/);

    expect((await s.call('GET', `/customers/${customerId}/`)).body.isArchived).toBe(false);
    expect(await subscriptionOf(subscriptionId)).toEqual(before);
    expect((await eventsAbout(subscriptionId)).length).toBe(eventsBefore);
  });

  it('with ?cancel_subscriptions=true cancels them at once, with their events, and archives', async () => {
    const { customerId, subscriptionId } = await subscribed('basic');
    const second = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.free, chargePeriod: 'MONTHLY', customerId });
    expect(second.status).toBe(201);

    const res = await archive(customerId, '?cancel_subscriptions=true');
    expect(res.status).toBe(204);
    expect((await s.call('GET', `/customers/${customerId}/`)).body.isArchived).toBe(true);
    for (const id of [subscriptionId, second.body.id as string]) {
      const ended = await subscriptionOf(id);
      expect(ended.status).toBe('canceled');
      expect(ended.endDate).not.toBeNull();
      expect(new Date(ended.endDate).getTime()).toBeLessThanOrEqual(Date.now());
      const cancelled = (await eventsAbout(id)).filter((e) => e.type === 'subscription.cancelled');
      expect(cancelled).toHaveLength(1);
      expect((cancelled[0]!.payload as any).data.previous_attributes ?? (cancelled[0]!.payload as any).previous_attributes).toMatchObject({
        status: 'active',
      });
    }
  });

  it('goes through for a customer whose subscriptions are all cancelled, or who only bought once', async () => {
    const { customerId, subscriptionId } = await subscribed('basic');
    const cancel = await s.call('POST', `/subscriptions/${subscriptionId}/cancel/`, { cancellationType: 'IMMEDIATE' });
    expect(cancel.status, cancel.text).toBe(200);
    expect((await archive(customerId)).status).toBe(204);

    const once = await s.customer();
    await s.card(once);
    const charged = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId: once });
    expect(charged.status).toBe(201);
    expect((await archive(once)).status).toBe(204);
  });

  it('refuses a cancel_subscriptions that is not a boolean, and changes nothing', async () => {
    const { customerId, subscriptionId } = await subscribed('basic');
    const res = await archive(customerId, '?cancel_subscriptions=please');
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/cancel_subscriptions/);
    expect((await subscriptionOf(subscriptionId)).status).toBe('active');
    expect((await s.call('GET', `/customers/${customerId}/`)).body.isArchived).toBe(false);
  });
});
