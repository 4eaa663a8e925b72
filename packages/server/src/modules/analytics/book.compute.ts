/**
 * The MRR book (decision 0097), pure: each subscription's and each customer's MRR per
 * currency, moved by the priced terms log one entry at a time. Every change of a customer's
 * MRR is one movement. The analytics job runs it over the new entries from the standing it
 * kept; a rebuild runs it over the whole log from an empty book, and must come out the same.
 *
 * A book keeps one dimension (decision 0106): the whole business, or each plan, or each
 * product. In a plan's book a customer's MRR is what they pay for that plan, so a move from
 * one plan to another is a churn of the first plan and a new customer of the second.
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
  /** The plan's or the product's identifier in a book of plans or products; '' in the book of the whole business. */
  segment: string;
}

export interface SubscriptionStanding {
  customerId: string;
  currency: string;
  parts: bigint;
  segment: string;
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
  /** The customer's MRR in the currency (and the segment) after it. */
  customerParts: bigint;
  segment: string;
}

export interface CustomerKey {
  customerId: string;
  currency: string;
  segment: string;
}

export function customerKey(key: CustomerKey): string {
  return JSON.stringify([key.customerId, key.currency, key.segment]);
}

export function parseCustomerKey(key: string): CustomerKey {
  const [customerId, currency, segment] = JSON.parse(key) as [string, string, string];
  return { customerId, currency, segment };
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
    const deltas = new Map<string, { holder: CustomerKey; delta: bigint; last: PricedTerms }>();
    const add = (entry: PricedTerms, holder: CustomerKey, delta: bigint) => {
      const key = customerKey(holder);
      const sum = deltas.get(key) ?? { holder, delta: 0n, last: entry };
      deltas.set(key, { ...sum, delta: sum.delta + delta, last: entry });
    };
    for (const entry of entries) {
      const previous = this.subscriptions.get(entry.subscriptionId);
      if (previous) add(entry, previous, -previous.parts);
      add(entry, entry, entry.parts);
      this.subscriptions.set(entry.subscriptionId, { customerId: entry.customerId, currency: entry.currency, parts: entry.parts, segment: entry.segment });
    }
    return [...deltas.values()].flatMap(({ holder, delta, last }) => this.move(last, holder, delta));
  }

  private move(entry: PricedTerms, holder: CustomerKey, delta: bigint): MovementRecord[] {
    if (delta === 0n) return [];
    const key = customerKey(holder);
    const was = this.customers.get(key) ?? { parts: 0n, everPaid: false };
    const after = was.parts + delta;
    this.customers.set(key, { parts: after, everPaid: was.everPaid || after > 0n });
    const movement = classify({ before: was.parts, after, everPaid: was.everPaid });
    if (!movement) return [];
    const { customerId, currency, segment } = holder;
    return [{ logId: entry.logId, subscriptionId: entry.subscriptionId, customerId, currency, segment, at: entry.at, kind: movement.kind, parts: movement.parts, customerParts: after }];
  }
}
