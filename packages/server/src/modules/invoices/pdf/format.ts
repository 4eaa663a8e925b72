/**
 * Amounts, quantities, rates and dates as a document's language writes them (decision
 * 0064). Amounts go to Intl as exact decimal strings made from minor units (never a
 * float); dates are the calendar days where the seller is.
 */
import { currencyDigits, formatMinor } from '../../../lib/money.js';
import { documentLanguage, type DocumentLanguage } from './labels.js';

export interface DocumentFormat {
  language: DocumentLanguage;
  /** 123456 EUR -> "1.234,56 EUR" (de), "EUR 1,234.56" (en). */
  money(minor: number, currency: string): string;
  /** A unit price without the currency: 1 USD-cent -> "0.01". */
  decimal(minor: number, currency: string): string;
  quantity(value: number): string;
  /** Basis points: 1900 -> "19%" (en), "19 %" (de). */
  percent(bp: number): string;
  date(at: Date): string;
  /** A period, its end exclusive: 27 Nov 10:00 to 27 Dec 10:00 -> "27 Nov – 26 Dec 2026". */
  period(start: Date, end: Date): string;
}

/** English documents write dates day-month-year, as British English does: unambiguous abroad. */
const LOCALES: Record<DocumentLanguage, string> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', ja: 'ja-JP' };

/** Basis points as an exact decimal fraction: 1950 -> "0.195". */
function fractionText(bp: number): string {
  const sign = bp < 0 ? '-' : '';
  const digits = String(Math.abs(bp)).padStart(5, '0');
  return `${sign}${digits.slice(0, -4)}.${digits.slice(-4)}`;
}

type Exact = Parameters<Intl.NumberFormat['format']>[0];

/** The calendar day of `at` in `timeZone`, as UTC noon of that day (safe to format in UTC, and to step by days). */
function calendarDay(at: Date, timeZone: string, shiftDays = 0): Date {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return new Date(Date.UTC(part('year'), part('month') - 1, part('day') + shiftDays, 12));
}

/** `language`: the languages wanted, strongest first (the reader's, then the seller's): the first one printable here. */
export function documentFormat(language: unknown[], timeZone: unknown): DocumentFormat {
  const lang = documentLanguage(...language);
  const locale = LOCALES[lang];
  const zone = typeof timeZone === 'string' && timeZone !== '' ? timeZone : 'UTC';
  const dates = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
  const decimal = (minor: number, currency: string, style: Intl.NumberFormatOptions) => {
    const digits = currencyDigits(currency);
    const options = { ...style, minimumFractionDigits: digits, maximumFractionDigits: digits };
    return new Intl.NumberFormat(locale, options).format(formatMinor(minor, digits) as Exact);
  };
  return {
    language: lang,
    money: (minor, currency) => decimal(minor, currency, { style: 'currency', currency, currencyDisplay: 'code' }),
    decimal: (minor, currency) => decimal(minor, currency, {}),
    quantity: (value) => new Intl.NumberFormat(locale).format(BigInt(value)),
    percent: (bp) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(fractionText(bp) as Exact),
    date: (at) => dates.format(calendarDay(at, zone)),
    period: (start, end) => {
      const first = calendarDay(start, zone);
      const last = calendarDay(end, zone, -1);
      return dates.formatRange(first, last.getTime() < first.getTime() ? first : last);
    },
  };
}
