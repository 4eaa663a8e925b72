/**
 * The MRR book (decision 0097), pure: each subscription's and each customer's MRR per
 * currency, moved by the priced terms log one entry at a time. Every change of a customer's
 * MRR is one movement. The analytics job runs it over the new entries from the standing it
 * kept; a rebuild runs it over the whole log from an empty book, and must come out the same.
 */
import { classify, type MovementKind } from './movements.compute.js';

/** One logged change of a subscription's terms, priced: its MRR from `at` on (0 when it does not count). */
export interface PricedTerms {
  logId: number;
  subscriptionId: string;
  customerId: string;
  currency: string;
  at: Date;
  parts: bigint;
}

export interface SubscriptionStanding {
  customerId: string;
  currency: string;
  parts: bigint;
}

export interface CustomerStanding {
  parts: bigint;
  everPaid: boolean;
}

export interface MovementRecord {
  logId: number;
  subscriptionId: string;
  customerId: string;
  currency: string;
  at: Date;
  kind: MovementKind;
  parts: bigint;
  /** The customer's MRR in the currency after it. */
  customerParts: bigint;
}

export function customerKey(customerId: string, currency: string): string {
  return `${customerId} ${currency}`;
}

export class MrrBook {
  constructor(
    readonly subscriptions = new Map<string, SubscriptionStanding>(),
    readonly customers = new Map<string, CustomerStanding>(),
  ) {}

  /**
   * Moves the book by the entries of one transaction. Their changes to one customer's MRR in
   * one currency make one movement, classified by the MRR before and after the transaction: a
   * plan change ends one subscription and starts another, and is one expansion or contraction.
   */
  apply(entries: readonly PricedTerms[]): MovementRecord[] {
    const deltas = new Map<string, { customerId: string; currency: string; delta: bigint; last: PricedTerms }>();
    const add = (entry: PricedTerms, customerId: string, currency: string, delta: bigint) => {
      const key = customerKey(customerId, currency);
      const sum = deltas.get(key) ?? { customerId, currency, delta: 0n, last: entry };
      deltas.set(key, { ...sum, delta: sum.delta + delta, last: entry });
    };
    for (const entry of entries) {
      const previous = this.subscriptions.get(entry.subscriptionId);
      if (previous) add(entry, previous.customerId, previous.currency, -previous.parts);
      add(entry, entry.customerId, entry.currency, entry.parts);
      this.subscriptions.set(entry.subscriptionId, { customerId: entry.customerId, currency: entry.currency, parts: entry.parts });
    }
    return [...deltas.values()].flatMap(({ customerId, currency, delta, last }) => this.move(last, customerId, currency, delta));
  }

  private move(entry: PricedTerms, customerId: string, currency: string, delta: bigint): MovementRecord[] {
    if (delta === 0n) return [];
    const key = customerKey(customerId, currency);
    const was = this.customers.get(key) ?? { parts: 0n, everPaid: false };
    const after = was.parts + delta;
    this.customers.set(key, { parts: after, everPaid: was.everPaid || after > 0n });
    const movement = classify({ before: was.parts, after, everPaid: was.everPaid });
    if (!movement) return [];
    return [{ logId: entry.logId, subscriptionId: entry.subscriptionId, customerId, currency, at: entry.at, kind: movement.kind, parts: movement.parts, customerParts: after }];
  }
}
