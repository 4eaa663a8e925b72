import { hasMessage, intlLocale, t } from './i18n/language';

const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

/** One Intl format per locale and kind, made once. */
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(id: string, make: (locale: string) => T): T {
  const key = `${intlLocale()}|${id}`;
  let format = formats.get(key);
  if (!format) {
    format = make(intlLocale());
    formats.set(key, format);
  }
  return format as T;
}

const currencyFormat = (currency: string) => cached(`money:${currency}`, (locale) => new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }));

/** Money in minor units in the dashboard's language, exactly (no floating point: the decimal string is built from integers). */
export function money(units: number | null | undefined, currency: string | null | undefined): string {
  if (units === null || units === undefined || !currency) return '—';
  const digits = currencyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
  const negative = units < 0;
  const whole = String(Math.abs(units)).padStart(digits + 1, '0');
  const decimal = digits > 0 ? `${whole.slice(0, -digits)}.${whole.slice(-digits)}` : whole;
  return majorMoney(`${negative ? '-' : ''}${decimal}`, currency);
}

/**
 * Money the API gives in major units ("10.00 usd" of a subscription, a plan's 29 or 19.99),
 * formatted as `money` formats minor units: the decimal text goes to the formatter as it is.
 */
export function majorMoney(amount: string | number | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined || amount === '' || !currency) return '—';
  const text = String(amount).trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return `${text} ${currency.toUpperCase()}`;
  return (currencyFormat(currency).format as (value: string) => string)(text);
}

/** A count as the language writes it ("1,234", "1.234", "1 234"). */
export function count(value: number): string {
  return cached('count', (locale) => new Intl.NumberFormat(locale)).format(value);
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  const format = cached('when', (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }));
  return Number.isNaN(date.getTime()) ? iso : `${format.format(date)} UTC`;
}

export function day(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  const format = cached('day', (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }));
  return Number.isNaN(date.getTime()) ? iso : format.format(date);
}

/**
 * A wire value (`PAST_DUE`, `MONTHLY`, `requested_by_customer`) as words in the dashboard's
 * language: the catalogue's `value.*` message; a value it does not know yet still reads as words.
 */
export function words(value: string | null | undefined): string {
  if (!value) return '—';
  const key = `value.${value.toLowerCase()}`;
  if (hasMessage(key)) return t(key);
  const text = value.replace(/[_.]+/g, ' ').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A country's name in the dashboard's language ("DE": "Germany", "Deutschland", "ドイツ"); the code when Intl does not know it. */
export function countryName(code: string | null | undefined): string {
  if (!code) return '—';
  try {
    return new Intl.DisplayNames([intlLocale()], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** A decimal as the language writes it, with at most `digits` after the separator ("2.3", "2,3"). */
export function decimal(value: number, digits: number): string {
  return cached(`decimal:${digits}`, (locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: digits })).format(value);
}

/** A card's brand as people write it ("visa" is "Visa"), or the word for a card when unknown. */
export function cardBrand(brand: string | null | undefined): string {
  return brand ? brand.charAt(0).toUpperCase() + brand.slice(1) : t('customer.card');
}
