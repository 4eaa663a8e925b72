/**
 * Cash figures in the reporting currency (decisions 0099 and 0102), pure: each amount of a
 * period is every converted currency's exact amount at its rate, summed and rounded once; the
 * counts add up the payments of the converted currencies only.
 */
import type { CashPeriod } from '@billow/contract';
import { recoveryRateBp } from './cash.compute.js';
import { convertedSum, type Conversion } from './conversion.compute.js';

type Tally = CashPeriod['collected'];
const TALLIES = ['collected', 'refunded', 'failed', 'recovered', 'lost'] as const;

function convertedTally(parts: readonly { currency: string; tally: Tally }[], conversion: Conversion): Tally {
  const converted = new Set(conversion.rates.filter((r) => r.rate).map((r) => r.currency));
  return {
    count: parts.filter((p) => converted.has(p.currency)).reduce((sum, p) => sum + p.tally.count, 0),
    amountUnits: convertedSum(parts.map((p) => ({ currency: p.currency, amount: BigInt(p.tally.amountUnits) })), conversion),
  };
}

/** The periods of every currency's series (the same periods in each), converted into one. */
export function reportingCash(currencies: readonly { currency: string; periods: CashPeriod[] }[], conversion: Conversion): CashPeriod[] {
  const first = currencies[0]?.periods ?? [];
  return first.map((period, i) => {
    const ofEach = currencies.map((c) => ({ currency: c.currency, period: c.periods[i]! }));
    const tally = (name: (typeof TALLIES)[number]) => convertedTally(ofEach.map((p) => ({ currency: p.currency, tally: p.period[name] })), conversion);
    const [collected, refunded, failed, recovered, lost] = TALLIES.map(tally) as [Tally, Tally, Tally, Tally, Tally];
    return {
      period: period.period,
      start: period.start,
      end: period.end,
      collected,
      refunded,
      netUnits: convertedSum(ofEach.map((p) => ({ currency: p.currency, amount: BigInt(p.period.netUnits) })), conversion),
      failed,
      recovered,
      lost,
      recoveryRateBp: recoveryRateBp(recovered.amountUnits, failed.amountUnits),
    };
  });
}
