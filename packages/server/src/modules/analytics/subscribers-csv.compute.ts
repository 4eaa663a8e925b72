/** The subscriber series as CSV (decision 0101), pure: one row per currency and period, then the rows of every currency together (currency `all`). */
import type { SubscriberPeriod, SubscriberSeries } from '@billow/contract';
import { csvOf } from './csv.compute.js';

const HEADER = [
  'currency', 'period', 'start', 'end', 'active_subscriptions_start', 'active_subscriptions_end',
  'trials_start', 'trials_end', 'trials_started', 'trials_ended', 'trials_converted', 'trial_conversion_rate_bp',
];

const row = (currency: string, p: SubscriberPeriod) => [
  currency, p.period, p.start, p.end, p.activeSubscriptionsStart, p.activeSubscriptionsEnd,
  p.trialsStart, p.trialsEnd, p.trialsStarted, p.trialsEnded, p.trialsConverted, p.trialConversionRateBp,
];

export function subscribersCsv(series: SubscriberSeries): string {
  return csvOf(HEADER, [...series.currencies.flatMap(({ currency, periods }) => periods.map((p) => row(currency, p))), ...series.allCurrencies.map((p) => row('all', p))]);
}
