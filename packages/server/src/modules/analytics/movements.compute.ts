/**
 * MRR movements (docs/analytics.md), pure. A customer's MRR in one currency is held exactly,
 * in 336ths of a minor unit (billing/month-parts.compute.ts); each change of it is one
 * movement, classified by the customer's MRR before and after. Movements are summed exactly
 * and rounded only when shown, so that a period's movements always add up to its change of MRR.
 */
import { MONTH_PARTS } from '../billing/month-parts.compute.js';
import { divRoundHalfUp } from '../billing/rounding.compute.js';

/** In the order they are rounded and shown: what brings MRR in, then what takes it away. */
export const MOVEMENT_KINDS = ['new', 'expansion', 'reactivation', 'contraction', 'churned'] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/** One customer's MRR in one currency, before and after a change, and whether it was ever above 0 before. */
export interface MrrChange {
  before: bigint;
  after: bigint;
  everPaid: boolean;
}

export interface Movement {
  kind: MovementKind;
  /** Signed: positive for new, expansion and reactivation; negative for contraction and churned. */
  parts: bigint;
}

/** The movement a change makes, or null when the MRR did not change. */
export function classify(change: MrrChange): Movement | null {
  const { before, after } = change;
  const parts = after - before;
  if (parts === 0n) return null;
  if (before <= 0n) return { kind: change.everPaid ? 'reactivation' : 'new', parts };
  if (after <= 0n) return { kind: 'churned', parts };
  return { kind: parts > 0n ? 'expansion' : 'contraction', parts };
}

export type MovementSums = Record<MovementKind, bigint>;

export function noMovements(): MovementSums {
  return { new: 0n, expansion: 0n, reactivation: 0n, contraction: 0n, churned: 0n };
}

export interface RoundedPeriod {
  startMinor: number;
  endMinor: number;
  movements: Record<MovementKind, number>;
}

/**
 * A period's MRR and movements in minor units. Each movement is the difference of the rounded
 * running total before and after it (in MOVEMENT_KINDS order), so the rounded movements add up
 * to the rounded end minus the rounded start exactly, and none is off by more than one unit.
 * `per`: how many of the amounts make a minor unit (336, or more for a converted figure).
 */
export function roundPeriod(startParts: bigint, sums: MovementSums, per: bigint = MONTH_PARTS): RoundedPeriod {
  const partsToMinor = (parts: bigint) => Number(divRoundHalfUp(parts, per));
  let running = startParts;
  const movements = {} as Record<MovementKind, number>;
  for (const kind of MOVEMENT_KINDS) {
    const before = partsToMinor(running);
    running += sums[kind];
    movements[kind] = partsToMinor(running) - before;
  }
  return { startMinor: partsToMinor(startParts), endMinor: partsToMinor(running), movements };
}
