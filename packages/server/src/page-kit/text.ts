import { currencySymbol, decimalText } from '../modules/ledger/format.js';

const PERIOD_NAMES: Record<string, string> = {
  ONE_TIME: 'One-time payment',
  DAILY: 'Daily',
  WEEKLY: 'Weekly',
  TWENTY_EIGHT_DAYS: 'Every 28 days',
  MONTHLY: 'Monthly',
  THREE_MONTHS: 'Every 3 months',
  SIX_MONTHS: 'Every 6 months',
  YEARLY: 'Yearly',
};

/** A charge period as the hosted pages name it ("Monthly", "Every 3 months"). */
export const periodName = (period: string): string => PERIOD_NAMES[period] ?? period;

/** An amount in minor units as the hosted pages print it: $12.50. */
export const money = (minor: number, currency: string): string => `${currencySymbol(currency)}${decimalText(minor, currency)}`;
