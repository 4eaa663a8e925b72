/**
 * Subscribers and trials (docs/analytics.md, decision 0101), pure: each subscription's
 * standing (active: its MRR is above 0; in its trial or not), moved by the priced terms log a
 * transaction at a time, and the events that change the counts. The analytics job runs it
 * beside the MRR book over the new entries; a rebuild runs it over the whole log from an empty
 * book, and must come out the same. Then the series: counts per period, per currency.
 */
import type { SubscriptionEventKind } from '../../db/schema.js';
import { basisPoints } from './ratios.compute.js';

export type { SubscriptionEventKind };

/** One logged change of a subscription, as the subscriber figures see it. */
export interface SubscriberEntry {
  logId: number;
  subscriptionId: string;
  /** The subscription it follows after a plan change. */
  previousSubscriptionId: string | null;
  customerId: string;
  currency: string;
  at: Date;
  /** Its MRR is above 0. */
  active: boolean;
  trialing: boolean;
  /** A paid period is under way (active or past due, recurring): what a trial that ends into it converted to. */
  counts: boolean;
  /** The plan's or the product's identifier in a book of plans or products (decision 0107); '' in the whole business's. */
  segment: string;
}

export interface SubscriptionState {
  customerId: string;
  currency: string;
  active: boolean;
  trialing: boolean;
  segment: string;
}

export interface SubscriberEvent {
  logId: number;
  subscriptionId: string;
  customerId: string;
  currency: string;
  at: Date;
  kind: SubscriptionEventKind;
  segment: string;
}

type Holder = Pick<SubscriptionState, 'customerId' | 'currency' | 'segment'>;

export class SubscriberBook {
  constructor(readonly subscriptions = new Map<string, SubscriptionState>()) {}

  /**
   * Moves the book by the entries of one transaction. A plan change supersedes a subscription
   * with its successor in one transaction: a trial the successor carries on has not ended (and
   * ends when the successor's does), so the predecessor's end of trial is no event. In a book of
   * plans or products (decision 0107) a subscription that moves to another segment (or
   * currency) leaves the first: it stops being active there, and a trial it was in ends there
   * without converting; a successor on another plan carries no trial on, and starts its own.
   */
  apply(entries: readonly SubscriberEntry[]): SubscriberEvent[] {
    const carried = this.carriedTrials(entries);
    const events: SubscriberEvent[] = [];
    for (const entry of entries) {
      const was = this.subscriptions.get(entry.subscriptionId);
      const event = (kind: SubscriptionEventKind, from: Holder = entry) =>
        events.push({ logId: entry.logId, subscriptionId: entry.subscriptionId, customerId: from.customerId, currency: from.currency, segment: from.segment, at: entry.at, kind });
      const moved = was !== undefined && (was.currency !== entry.currency || was.segment !== entry.segment);
      if (was?.active && (!entry.active || moved)) event('deactivated', was);
      if (entry.active && (!was?.active || moved)) event('activated');
      if (was?.trialing && moved) event('trial_lapsed', was);
      const wasTrialing = was ? was.trialing && !moved : entry.previousSubscriptionId !== null && carried.has(entry.previousSubscriptionId);
      if (!wasTrialing && entry.trialing) event('trial_started');
      else if (wasTrialing && !entry.trialing && !carried.has(entry.subscriptionId)) event(entry.counts ? 'trial_converted' : 'trial_lapsed');
      this.subscriptions.set(entry.subscriptionId, { customerId: entry.customerId, currency: entry.currency, active: entry.active, trialing: entry.trialing, segment: entry.segment });
    }
    return events;
  }

  /**
   * The subscriptions in their trial before the transaction whose trial a successor first
   * logged in it takes over (and which leave it in it): in the same currency and segment.
   */
  private carriedTrials(entries: readonly SubscriberEntry[]): Set<string> {
    const last = new Map(entries.map((entry) => [entry.subscriptionId, entry]));
    const carried = new Set<string>();
    for (const entry of entries) {
      const previous = entry.previousSubscriptionId;
      if (!previous || this.subscriptions.has(entry.subscriptionId)) continue;
      const was = this.subscriptions.get(previous);
      if (!was?.trialing || was.segment !== entry.segment || was.currency !== entry.currency) continue;
      if (last.get(previous)?.trialing === false) carried.add(previous);
    }
    return carried;
  }
}

/** The events of one kind in one currency within a period, counted. */
export interface SubscriberEventTotal {
  currency: string;
  kind: SubscriptionEventKind;
  count: number;
}

/** A currency's active subscriptions and trials when the first period begins. */
export interface SubscriberOpening {
  currency: string;
  active: number;
  trials: number;
}

export interface SubscriberFigures {
  label: string;
  currency: string;
  activeStart: number;
  activeEnd: number;
  trialsStart: number;
  trialsEnd: number;
  trialsStarted: number;
  /** Converted and lapsed. */
  trialsEnded: number;
  trialsConverted: number;
  /** Converted ÷ ended, in basis points; null when no trial ended. */
  trialConversionRateBp: number | null;
}

function countsOf(totals: readonly SubscriberEventTotal[], currency: string | null): Record<SubscriptionEventKind, number> {
  const counted = { activated: 0, deactivated: 0, trial_started: 0, trial_converted: 0, trial_lapsed: 0 };
  for (const total of totals) if (currency === null || total.currency === currency) counted[total.kind] += total.count;
  return counted;
}

/**
 * The figures of each period, per currency (every currency of the openings or the totals, in
 * code order), each period opening where the one before it closed.
 */
export function subscriberSeriesOf(openings: readonly SubscriberOpening[], periods: readonly { label: string; totals: readonly SubscriberEventTotal[] }[]): SubscriberFigures[] {
  const standing = new Map(openings.map((o) => [o.currency, { active: o.active, trials: o.trials }]));
  for (const period of periods) for (const total of period.totals) if (!standing.has(total.currency)) standing.set(total.currency, { active: 0, trials: 0 });
  const figures: SubscriberFigures[] = [];
  for (const period of periods) {
    for (const currency of [...standing.keys()].sort()) {
      const open = standing.get(currency)!;
      const n = countsOf(period.totals, currency);
      const ended = n.trial_converted + n.trial_lapsed;
      const end = { active: open.active + n.activated - n.deactivated, trials: open.trials + n.trial_started - ended };
      figures.push({
        label: period.label,
        currency,
        activeStart: open.active,
        activeEnd: end.active,
        trialsStart: open.trials,
        trialsEnd: end.trials,
        trialsStarted: n.trial_started,
        trialsEnded: ended,
        trialsConverted: n.trial_converted,
        trialConversionRateBp: basisPoints(BigInt(n.trial_converted), BigInt(ended)),
      });
      standing.set(currency, end);
    }
  }
  return figures;
}

/** Every currency's figures of each period added up (counts add across currencies; the rate is worked out again from them). */
export function allCurrencies(labels: readonly string[], figures: readonly SubscriberFigures[]): SubscriberFigures[] {
  const zero = (label: string): SubscriberFigures => ({
    label, currency: '', activeStart: 0, activeEnd: 0, trialsStart: 0, trialsEnd: 0, trialsStarted: 0, trialsEnded: 0, trialsConverted: 0, trialConversionRateBp: null,
  });
  const byLabel = new Map(labels.map((label) => [label, zero(label)]));
  for (const f of figures) {
    const sum = byLabel.get(f.label);
    if (!sum) continue;
    for (const key of ['activeStart', 'activeEnd', 'trialsStart', 'trialsEnd', 'trialsStarted', 'trialsEnded', 'trialsConverted'] as const) sum[key] += f[key];
  }
  return [...byLabel.values()].map((sum) => ({ ...sum, trialConversionRateBp: basisPoints(BigInt(sum.trialsConverted), BigInt(sum.trialsEnded)) }));
}
