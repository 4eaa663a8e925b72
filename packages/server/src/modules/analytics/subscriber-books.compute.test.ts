import { describe, expect, it } from 'vitest';
import { applyToSubscriberBooks, emptySubscriberBooks } from './subscriber-books.compute.js';

let logId = 0;
const entry = (subscriptionId: string, state: 'trialing' | 'active' | 'ended', plan: string, previousSubscriptionId: string | null = null) => ({
  entry: {
    logId: ++logId,
    subscriptionId,
    previousSubscriptionId,
    customerId: 'cus',
    currency: 'USD',
    at: new Date('2026-03-01T00:00:00Z'),
    active: state === 'active',
    trialing: state === 'trialing',
    counts: state === 'active',
    segment: '',
  },
  owners: { plan, product: 'app' },
});
const summary = (events: ReturnType<typeof applyToSubscriberBooks>) => events.map((e) => [e.dimension, e.segment, e.kind, e.subscriptionId]);

describe('applyToSubscriberBooks', () => {
  it("moves a trial changed from one plan to another of the same product: carried on by the whole business and the product, ended and started by the plans", () => {
    const books = emptySubscriberBooks();
    expect(summary(applyToSubscriberBooks(books, [entry('a', 'trialing', 'basic')]))).toEqual([
      ['all', '', 'trial_started', 'a'],
      ['plan', 'basic', 'trial_started', 'a'],
      ['product', 'app', 'trial_started', 'a'],
    ]);
    expect(summary(applyToSubscriberBooks(books, [entry('a', 'ended', 'basic'), entry('b', 'trialing', 'pro', 'a')]))).toEqual([
      ['plan', 'basic', 'trial_lapsed', 'a'],
      ['plan', 'pro', 'trial_started', 'b'],
    ]);
    expect(summary(applyToSubscriberBooks(books, [entry('b', 'active', 'pro')]))).toEqual([
      ['all', '', 'activated', 'b'],
      ['all', '', 'trial_converted', 'b'],
      ['plan', 'pro', 'activated', 'b'],
      ['plan', 'pro', 'trial_converted', 'b'],
      ['product', 'app', 'activated', 'b'],
      ['product', 'app', 'trial_converted', 'b'],
    ]);
  });
});
