import { describe, expect, it } from 'vitest';
import { customerKey, MrrBook, type PricedTerms } from './book.compute.js';

const month = (minor: number) => BigInt(minor) * 336n;
let logId = 0;
const terms = (subscriptionId: string, minor: number, customerId = 'cus', currency = 'USD'): PricedTerms => ({
  logId: ++logId,
  subscriptionId,
  customerId,
  currency,
  at: new Date('2026-03-01T00:00:00Z'),
  parts: month(minor),
  segment: '',
});
const kinds = (book: MrrBook, ...entries: PricedTerms[]) => book.apply(entries).map((m) => [m.kind, m.parts / 336n, m.customerParts / 336n]);

describe('MrrBook', () => {
  it("classifies by the customer's MRR: a second subscription expands, losing one of two contracts", () => {
    const book = new MrrBook();
    expect(kinds(book, terms('a', 1000))).toEqual([['new', 1000n, 1000n]]);
    expect(kinds(book, terms('b', 500))).toEqual([['expansion', 500n, 1500n]]);
    expect(kinds(book, terms('a', 0))).toEqual([['contraction', -1000n, 500n]]);
    expect(kinds(book, terms('b', 0))).toEqual([['churned', -500n, 0n]]);
    expect(kinds(book, terms('c', 700))).toEqual([['reactivation', 700n, 700n]]);
  });

  it('makes one movement of a plan change, which ends one subscription and starts another in one transaction', () => {
    const book = new MrrBook();
    book.apply([terms('old', 1000)]);
    expect(kinds(book, terms('old', 0), terms('new', 2500))).toEqual([['expansion', 1500n, 2500n]]);
    // The other order within the transaction gives the same.
    expect(kinds(book, terms('newer', 2000), terms('new', 0))).toEqual([['contraction', -500n, 2000n]]);
    expect(book.subscriptions.get('old')?.parts).toBe(0n);
  });

  it('makes nothing of a change that leaves the MRR as it was, and keeps currencies and customers apart', () => {
    const book = new MrrBook();
    book.apply([terms('a', 1000)]);
    expect(kinds(book, terms('a', 1000))).toEqual([]);
    expect(kinds(book, terms('e', 900, 'cus', 'EUR'))).toEqual([['new', 900n, 900n]]);
    expect(kinds(book, terms('x', 300, 'other'))).toEqual([['new', 300n, 300n]]);
    expect(book.customers.get(customerKey({ customerId: 'cus', currency: 'USD', segment: '' }))).toEqual({ parts: month(1000), everPaid: true });
  });

  it("keeps each plan's customers apart in a book of plans: a move from one plan to another leaves one and joins the other", () => {
    const book = new MrrBook();
    const onPlan = (subscriptionId: string, minor: number, segment: string): PricedTerms => ({ ...terms(subscriptionId, minor), segment });
    expect(kinds(book, onPlan('a', 1000, 'basic'))).toEqual([['new', 1000n, 1000n]]);
    const moved = book.apply([onPlan('a', 0, 'basic'), onPlan('b', 2500, 'pro')]);
    expect(moved.map((m) => [m.segment, m.kind, m.parts / 336n])).toEqual([
      ['basic', 'churned', -1000n],
      ['pro', 'new', 2500n],
    ]);
    expect(kinds(book, onPlan('b', 0, 'pro'), onPlan('c', 1000, 'basic'))).toEqual([
      ['churned', -2500n, 0n],
      ['reactivation', 1000n, 1000n],
    ]);
  });
});
