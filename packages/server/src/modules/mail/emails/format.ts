/**
 * Money and dates as buyers read them in emails (decision 0070), through Intl: English as
 * British English writes it (unambiguous abroad, as the documents do), dates as calendar
 * days where the seller is. Amounts reach Intl as exact decimal strings made from minor
 * units, never as floats.
 */
import { currencyDigits, formatMinor } from '../../../lib/money.js';

const LOCALE = 'en-GB';

type Exact = Parameters<Intl.NumberFormat['format']>[0];

export interface EmailFormat {
  /** 2000 USD -> "USD 20.00", as the invoice PDF writes it. */
  money(minor: number, currency: string): string;
  /** An instant as the day it falls on where the seller is: "12 March 2027". */
  date(at: Date): string;
  /** A card's expiry month: "September 2027". */
  month(year: number, month: number): string;
}

/** A time zone Intl knows, else UTC (a profile's zone is checked when set; this guards old rows). */
function zoneOf(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat(LOCALE, { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

export function emailFormat(timeZone: string | null | undefined): EmailFormat {
  const zone = zoneOf(timeZone);
  const dates = new Intl.DateTimeFormat(LOCALE, { timeZone: zone, day: 'numeric', month: 'long', year: 'numeric' });
  const months = new Intl.DateTimeFormat(LOCALE, { timeZone: 'UTC', month: 'long', year: 'numeric' });
  return {
    money: (minor, currency) => {
      const digits = currencyDigits(currency);
      const style = { style: 'currency', currency, currencyDisplay: 'code', minimumFractionDigits: digits, maximumFractionDigits: digits } as const;
      return new Intl.NumberFormat(LOCALE, style).format(formatMinor(minor, digits) as Exact);
    },
    date: (at) => dates.format(at),
    month: (year, month) => months.format(new Date(Date.UTC(year, month - 1, 15))),
  };
}
