import { describe, expect, it } from 'vitest';
import { allCurrencies, SubscriberBook, subscriberSeriesOf, type SubscriberEntry } from './subscribers.compute.js';

let logId = 0;
type State = 'trialing' | 'active' | 'past_due_free' | 'ended';
const entry = (subscriptionId: string, state: State, previousSubscriptionId: string | null = null, currency = 'USD', segment = ''): SubscriberEntry => ({
  logId: ++logId,
  subscriptionId,
  previousSubscriptionId,
  customerId: 'cus',
  currency,
  at: new Date('2026-04-01T00:00:00Z'),
  active: state === 'active',
  trialing: state === 'trialing',
  counts: state === 'active' || state === 'past_due_free',
  segment,
});
const kinds = (book: SubscriberBook, ...entries: SubscriberEntry[]) => book.apply(entries).map((e) => `${e.kind} ${e.subscriptionId}`);

describe('SubscriberBook', () => {
  it('starts a trial, and ends it converted into a paid period or lapsed otherwise', () => {
    const book = new SubscriberBook();
    expect(kinds(book, entry('a', 'trialing'), entry('b', 'trialing'))).toEqual(['trial_started a', 'trial_started b']);
    expect(kinds(book, entry('a', 'active'))).toEqual(['activated a', 'trial_converted a']);
    expect(kinds(book, entry('b', 'ended'))).toEqual(['trial_lapsed b']);
    expect(kinds(book, entry('a', 'ended'))).toEqual(['deactivated a']);
  });

  it('converts a trial into a paid period priced at 0 without making it active', () => {
    const book = new SubscriberBook();
    kinds(book, entry('a', 'trialing'));
    expect(kinds(book, entry('a', 'past_due_free'))).toEqual(['trial_converted a']);
  });

  it('carries a trial over a plan change: it goes on in the successor, and ends with it', () => {
    const book = new SubscriberBook();
    kinds(book, entry('a', 'trialing'));
    expect(kinds(book, entry('a', 'ended'), entry('b', 'trialing', 'a'))).toEqual([]);
    // The successor's first row may come first in the transaction.
    expect(kinds(book, entry('c', 'trialing', 'b'), entry('b', 'ended'))).toEqual([]);
    expect(kinds(book, entry('c', 'active'))).toEqual(['activated c', 'trial_converted c']);
  });

  it("in a book of plans, carries no trial to another plan: it ends for the first without converting and starts for the second (decision 0107)", () => {
    const book = new SubscriberBook();
    kinds(book, entry('a', 'trialing', null, 'USD', 'studio'));
    const moved = book.apply([entry('a', 'ended', null, 'USD', 'studio'), entry('b', 'trialing', 'a', 'USD', 'pro')]);
    expect(moved.map((e) => `${e.kind} ${e.subscriptionId} ${e.segment}`)).toEqual(['trial_lapsed a studio', 'trial_started b pro']);
    // Within one plan, a plan change (a yearly switch) carries it on, as in the whole business's book.
    expect(kinds(book, entry('b', 'ended', null, 'USD', 'pro'), entry('c', 'trialing', 'b', 'USD', 'pro'))).toEqual([]);
    expect(kinds(book, entry('c', 'active', null, 'USD', 'pro'))).toEqual(['activated c', 'trial_converted c']);
  });

  it('moves an active subscription whose segment changes from one count to the other', () => {
    const book = new SubscriberBook();
    kinds(book, entry('a', 'active', null, 'USD', 'starter'));
    const moved = book.apply([entry('a', 'active', null, 'USD', 'pro')]);
    expect(moved.map((e) => `${e.kind} ${e.segment}`)).toEqual(['deactivated starter', 'activated pro']);
  });

  it('converts a trial that a plan change ends into a paid plan', () => {
    const book = new SubscriberBook();
    kinds(book, entry('a', 'trialing'));
    expect(kinds(book, entry('a', 'ended'), entry('b', 'active', 'a'))).toEqual(['activated b', 'trial_converted b']);
  });

  it('starts a trial that a plan change puts a paying subscription in', () => {
    const book = new SubscriberBook();
    kinds(book, entry('a', 'active'));
    expect(kinds(book, entry('a', 'ended'), entry('b', 'trialing', 'a'))).toEqual(['deactivated a', 'trial_started b']);
  });

  it('moves an active subscription between currencies', () => {
    const book = new SubscriberBook();
    kinds(book, entry('a', 'active'));
    const moved = book.apply([entry('a', 'active', null, 'EUR')]).map((e) => `${e.kind} ${e.currency}`);
    expect(moved).toEqual(['deactivated USD', 'activated EUR']);
  });
});

describe('subscriberSeriesOf', () => {
  it('counts each period from where the one before it closed, and the conversion rate of the trials that ended', () => {
    // docs/analytics.md: 20 trials ended in April, 6 became paid: 30.00 %.
    const figures = subscriberSeriesOf(
      [{ currency: 'USD', active: 10, trials: 25 }],
      [
        { label: '2026-03', totals: [] },
        {
          label: '2026-04',
          totals: [
            { currency: 'USD', kind: 'trial_started', count: 4 },
            { currency: 'USD', kind: 'trial_converted', count: 6 },
            { currency: 'USD', kind: 'trial_lapsed', count: 14 },
            { currency: 'USD', kind: 'activated', count: 6 },
            { currency: 'EUR', kind: 'trial_started', count: 1 },
          ],
        },
      ],
    );
    expect(figures.map((f) => [f.label, f.currency, f.activeEnd, f.trialsEnd, f.trialsEnded, f.trialsConverted, f.trialConversionRateBp])).toEqual([
      ['2026-03', 'EUR', 0, 0, 0, 0, null],
      ['2026-03', 'USD', 10, 25, 0, 0, null],
      ['2026-04', 'EUR', 0, 1, 0, 0, null],
      ['2026-04', 'USD', 16, 9, 20, 6, 3000],
    ]);
    const all = allCurrencies(['2026-03', '2026-04'], figures);
    expect(all.map((f) => [f.label, f.trialsStart, f.trialsEnd, f.trialsStarted, f.trialConversionRateBp])).toEqual([
      ['2026-03', 25, 25, 0, null],
      ['2026-04', 25, 10, 5, 3000],
    ]);
  });
});
