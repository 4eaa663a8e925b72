const formatter = (currency: string) => new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() });

/** Money in minor units to the seller's locale, exactly (no floating point: the decimal string is built from integers). */
export function money(units: number | null | undefined, currency: string | null | undefined): string {
  if (units === null || units === undefined || !currency) return '—';
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
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
  return (formatter(currency).format as (value: string) => string)(text);
}

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${DATE.format(date)} UTC`;
}

export function day(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DAY.format(date);
}

/** A wire enum (`PAST_DUE`, `payment_failed`) as words for a person. */
export function words(value: string | null | undefined): string {
  if (!value) return '—';
  const text = value.replace(/[_.]+/g, ' ').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
