import { describe, expect, it } from 'vitest';
import { applyToBooks, emptyBooks } from './books.compute.js';

let logId = 0;
const entry = (subscriptionId: string, minor: number, plan: string, product = 'app') => ({
  terms: { logId: ++logId, subscriptionId, customerId: 'cus', currency: 'USD', at: new Date('2026-03-01T00:00:00Z'), parts: BigInt(minor) * 336n, segment: '' },
  owners: { plan, product },
});
const summary = (moved: ReturnType<typeof applyToBooks>) => moved.map((m) => [m.dimension, m.segment, m.kind, Number(m.parts / 336n)]);

describe('applyToBooks', () => {
  it('moves the whole business, the plans and the products by one plan change, each as its own customers see it', () => {
    const books = emptyBooks();
    expect(summary(applyToBooks(books, [entry('a', 1000, 'basic')]))).toEqual([
      ['all', '', 'new', 1000],
      ['plan', 'basic', 'new', 1000],
      ['product', 'app', 'new', 1000],
    ]);
    expect(summary(applyToBooks(books, [entry('a', 0, 'basic'), entry('b', 3000, 'pro')]))).toEqual([
      ['all', '', 'expansion', 2000],
      ['plan', 'basic', 'churned', -1000],
      ['plan', 'pro', 'new', 3000],
      ['product', 'app', 'expansion', 2000],
    ]);
  });

  it('keeps the movements of every book adding up to the same change of MRR', () => {
    const books = emptyBooks();
    const moved = [
      ...applyToBooks(books, [entry('a', 1000, 'basic', 'app'), entry('b', 500, 'addon', 'extras')]),
      ...applyToBooks(books, [entry('a', 0, 'basic', 'app'), entry('c', 2500, 'pro', 'app')]),
      ...applyToBooks(books, [entry('b', 0, 'addon', 'extras')]),
    ];
    const total = (dimension: string) => moved.filter((m) => m.dimension === dimension).reduce((sum, m) => sum + m.parts, 0n);
    expect(total('all')).toBe(2500n * 336n);
    expect(total('plan')).toBe(total('all'));
    expect(total('product')).toBe(total('all'));
  });
});
