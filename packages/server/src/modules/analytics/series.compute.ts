/**
 * MRR series (docs/analytics.md), pure: the MRR, the movements and the paying customers of
 * consecutive periods, per currency. The API sums the kept movements per period in the
 * database and hands the sums to `seriesOf`; `mrrSeries` gets them from a history of each
 * customer's MRR, for checks and rebuilds. Both end in the same rounding.
 */
import { MrrBook, parseCustomerKey } from './book.compute.js';
import { noMovements, roundPeriod, type MovementKind, type MovementSums, type RoundedPeriod } from './movements.compute.js';

/** From `at` on, this customer's MRR in this currency is `parts` (336ths of a minor unit). */
export interface CustomerMrr {
  customerId: string;
  currency: string;
  at: Date;
  parts: bigint;
}

/** A half-open period [start, end), named by its label (a day or a month in the seller's time zone). */
export interface Period {
  label: string;
  start: Date;
  end: Date;
}

/** The movements of one kind in one currency within a period: their exact sum, and how many there were. */
export interface MovementTotal {
  currency: string;
  kind: MovementKind;
  parts: bigint;
  count: number;
}

/** A currency's MRR and paying customers when the first period begins. */
export interface Opening {
  currency: string;
  parts: bigint;
  paying: number;
}

export interface CustomerCounts {
  /** Paying customers (MRR above 0) at the period's start and end. */
  start: number;
  end: number;
  new: number;
  reactivated: number;
  churned: number;
}

export interface PeriodFigures extends RoundedPeriod {
  label: string;
  currency: string;
  /** The exact MRR at the period's end and the exact movements, in 336ths of a minor unit. */
  endParts: bigint;
  sums: MovementSums;
  customers: CustomerCounts;
  /** How many of endParts and sums make a minor unit: 336 (MONTH_PARTS) unless the figures were converted. */
  per?: bigint;
}

/**
 * The figures of each period, per currency (every currency of the openings or the totals,
 * in code order), each period opening where the one before it closed.
 */
export function seriesOf(openings: readonly Opening[], periods: readonly { label: string; totals: readonly MovementTotal[] }[]): PeriodFigures[] {
  const standing = new Map(openings.map((o) => [o.currency, { parts: o.parts, paying: o.paying }]));
  for (const period of periods) for (const total of period.totals) if (!standing.has(total.currency)) standing.set(total.currency, { parts: 0n, paying: 0 });
  const currencies = [...standing.keys()].sort();
  const figures: PeriodFigures[] = [];
  for (const period of periods) {
    for (const currency of currencies) {
      const open = standing.get(currency)!;
      const sums = noMovements();
      const counted = { new: 0, reactivation: 0, churned: 0 } as Record<MovementKind, number>;
      for (const total of period.totals) {
        if (total.currency !== currency) continue;
        sums[total.kind] += total.parts;
        counted[total.kind] = (counted[total.kind] ?? 0) + total.count;
      }
      const rounded = roundPeriod(open.parts, sums);
      const customers = { start: open.paying, end: open.paying + counted.new + counted.reactivation - counted.churned, new: counted.new, reactivated: counted.reactivation, churned: counted.churned };
      const endParts = open.parts + sums.new + sums.expansion + sums.reactivation + sums.contraction + sums.churned;
      figures.push({ label: period.label, currency, ...rounded, endParts, sums, customers });
      standing.set(currency, { parts: endParts, paying: customers.end });
    }
  }
  return figures;
}

/** The figures of each period from a history of customers' MRR (in any order; changes at one instant apply in the order given). */
export function mrrSeries(history: readonly CustomerMrr[], periods: readonly Period[]): PeriodFigures[] {
  const ordered = history.map((change, index) => ({ change, index })).sort((a, b) => a.change.at.getTime() - b.change.at.getTime() || a.index - b.index);
  // Each customer's history as one subscription of its own per currency: the book then classifies exactly the customer's changes.
  const book = new MrrBook();
  const movementsOf = (change: CustomerMrr, logId: number) =>
    book.apply([{ logId, subscriptionId: `${change.customerId} ${change.currency}`, customerId: change.customerId, currency: change.currency, at: change.at, parts: change.parts, segment: '' }]);
  let next = 0;
  const opening = () => {
    const parts = new Map<string, Opening>();
    for (const change of ordered) parts.set(change.change.currency, { currency: change.change.currency, parts: 0n, paying: 0 });
    for (const [key, standing] of book.customers) {
      const { currency } = parseCustomerKey(key);
      const open = parts.get(currency)!;
      open.parts += standing.parts;
      if (standing.parts > 0n) open.paying += 1;
    }
    return [...parts.values()];
  };
  for (; next < ordered.length && periods.length > 0 && ordered[next]!.change.at < periods[0]!.start; next++) movementsOf(ordered[next]!.change, next);
  const openings = opening();
  const totals = periods.map((period) => {
    const found: MovementTotal[] = [];
    for (; next < ordered.length && ordered[next]!.change.at < period.end; next++) {
      for (const movement of movementsOf(ordered[next]!.change, next)) found.push({ currency: movement.currency, kind: movement.kind, parts: movement.parts, count: 1 });
    }
    return { label: period.label, totals: found };
  });
  return seriesOf(openings, totals);
}
