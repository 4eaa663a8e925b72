/**
 * An email's words, money and dates in the buyer's language (decisions 0070, 0075): messages
 * of the hosted pages' catalogue (its `mail.` part), amounts and days through Intl in that
 * language. Amounts are written with the currency's code, as the invoice PDF writes them
 * ("USD 20.00", "20,00 USD"), and reach Intl as exact decimal strings made from minor
 * units, never as floats; days are calendar days where the seller is.
 */
import type { PrimitiveType } from 'intl-messageformat';
import { translator, type MessageKey, type PageLanguage } from '../../../page-kit/i18n.js';
import { currencyDigits, formatMinor } from '../../../lib/money.js';

/** English as British English writes it (day first: unambiguous abroad, as the documents do). */
const LOCALES: Record<PageLanguage, string> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', ja: 'ja-JP' };

type Exact = Parameters<Intl.NumberFormat['format']>[0];

/** The keys of the emails' part of the catalogue. */
export type MailKey = Extract<MessageKey, `mail.${string}`>;

export interface EmailFormat {
  lang: PageLanguage;
  /** A message of the catalogue's mail part, its placeholders filled in. */
  t(key: MailKey, values?: Record<string, PrimitiveType>): string;
  /** 2000 USD -> "USD 20.00" (English), "20,00 USD" (German). */
  money(minor: number, currency: string): string;
  /** An instant as the day it falls on where the seller is: "12 March 2027", "12. März 2027". */
  date(at: Date): string;
  /** A card's expiry month: "September 2027", "September 2027", "2027年9月". */
  month(year: number, month: number): string;
}

/** A time zone Intl knows, else UTC (a profile's zone is checked when set; this guards old rows). */
function zoneOf(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

export function emailFormat(timeZone: string | null | undefined, lang: PageLanguage = 'en'): EmailFormat {
  const locale = LOCALES[lang];
  const zone = zoneOf(timeZone);
  const dates = new Intl.DateTimeFormat(locale, { timeZone: zone, day: 'numeric', month: 'long', year: 'numeric' });
  const months = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'long', year: 'numeric' });
  const words = translator(lang);
  return {
    lang,
    t: (key, values) => words.t(key, values),
    money: (minor, currency) => {
      const digits = currencyDigits(currency);
      const style = { style: 'currency', currency, currencyDisplay: 'code', minimumFractionDigits: digits, maximumFractionDigits: digits } as const;
      return new Intl.NumberFormat(locale, style).format(formatMinor(minor, digits) as Exact);
    },
    date: (at) => dates.format(at),
    month: (year, month) => months.format(new Date(Date.UTC(year, month - 1, 15))),
  };
}
