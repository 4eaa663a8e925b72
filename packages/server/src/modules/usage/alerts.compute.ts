/**
 * Usage alerts (DOMAIN.md §3.3): a PERCENTAGE threshold (1–100) is reached
 * when usage is at least that share of the usage limit, and needs a finite
 * limit; a BALANCE threshold is an absolute amount of usage (not of what
 * remains). Each threshold alerts once per period: the period's counter keeps
 * the ones already sent. Pure.
 */
import type { AlertTerms } from '../entitlements/compute.js';

export interface Crossing {
  type: AlertTerms['type'];
  threshold: number;
  /** How the period's counter remembers it was sent. */
  key: string;
}

export const alertKey = (type: AlertTerms['type'], threshold: number) => `${type}:${threshold}`;

/** The thresholds usage has reached that have not alerted yet this period, lowest first. */
export function crossedThresholds(
  alerts: AlertTerms | null,
  state: { usageLimit: number | null; currentUsage: number },
  sent: readonly unknown[],
): Crossing[] {
  if (!alerts) return [];
  const { usageLimit, currentUsage } = state;
  if (alerts.type === 'PERCENTAGE' && (usageLimit === null || usageLimit <= 0)) return [];
  return [...alerts.thresholds]
    .sort((a, b) => a - b)
    .filter((threshold) =>
      alerts.type === 'BALANCE' ? currentUsage >= threshold : currentUsage * 100 >= threshold * (usageLimit as number),
    )
    .map((threshold) => ({ type: alerts.type, threshold, key: alertKey(alerts.type, threshold) }))
    .filter((crossing) => !sent.includes(crossing.key));
}
