/**
 * MRR series (docs/analytics.md), pure: from the history of each customer's MRR per currency,
 * the MRR, the movements and the paying customers of consecutive periods. The same function
 * serves a rebuild from the raw tables and checks of the figures kept as they happen.
 */
import { classify, noMovements, roundPeriod, type MovementSums, type RoundedPeriod } from './movements.compute.js';

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
}

interface Standing {
  parts: bigint;
  everPaid: boolean;
}

class CurrencyBook {
  readonly standing = new Map<string, Standing>();
  total = 0n;
  paying = 0;

  /** Applies one change, adding its movement to `sums` and `counts` when given. */
  apply(change: CustomerMrr, sums: MovementSums | null, counts: CustomerCounts | null): void {
    const was = this.standing.get(change.customerId) ?? { parts: 0n, everPaid: false };
    const movement = classify({ before: was.parts, after: change.parts, everPaid: was.everPaid });
    this.standing.set(change.customerId, { parts: change.parts, everPaid: was.everPaid || was.parts > 0n });
    if (!movement) return;
    this.total += movement.parts;
    if (movement.kind === 'new' || movement.kind === 'reactivation') this.paying += 1;
    if (movement.kind === 'churned') this.paying -= 1;
    if (sums) sums[movement.kind] += movement.parts;
    if (counts && movement.kind === 'new') counts.new += 1;
    if (counts && movement.kind === 'reactivation') counts.reactivated += 1;
    if (counts && movement.kind === 'churned') counts.churned += 1;
  }
}

/**
 * The figures of each period, per currency (every currency the history knows, in code order).
 * `history` may come in any order; changes at the same instant apply in the order given.
 */
export function mrrSeries(history: readonly CustomerMrr[], periods: readonly Period[]): PeriodFigures[] {
  const ordered = [...history].sort((a, b) => a.at.getTime() - b.at.getTime());
  const books = new Map<string, CurrencyBook>();
  for (const currency of [...new Set(ordered.map((change) => change.currency))].sort()) books.set(currency, new CurrencyBook());
  let next = 0;
  const advanceTo = (until: Date, onChange?: (change: CustomerMrr, book: CurrencyBook) => void) => {
    for (; next < ordered.length && ordered[next]!.at < until; next++) {
      const change = ordered[next]!;
      const book = books.get(change.currency)!;
      if (onChange) onChange(change, book);
      else book.apply(change, null, null);
    }
  };
  const figures: PeriodFigures[] = [];
  for (const period of periods) {
    advanceTo(period.start);
    const opening = new Map([...books].map(([currency, book]) => [currency, { parts: book.total, paying: book.paying }]));
    const sums = new Map([...books.keys()].map((currency) => [currency, noMovements()]));
    const counts = new Map([...books.keys()].map((currency) => [currency, { start: opening.get(currency)!.paying, end: 0, new: 0, reactivated: 0, churned: 0 }]));
    advanceTo(period.end, (change, book) => book.apply(change, sums.get(change.currency)!, counts.get(change.currency)!));
    for (const [currency, book] of books) {
      const customers = { ...counts.get(currency)!, end: book.paying };
      const periodSums = sums.get(currency)!;
      figures.push({ label: period.label, currency, ...roundPeriod(opening.get(currency)!.parts, periodSums), endParts: book.total, sums: periodSums, customers });
    }
  }
  return figures;
}
