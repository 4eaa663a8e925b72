import { currencyDigits, formatMinor, fromMinor } from '../../lib/money.js';
import { notACalendarDate, notADate } from './errors.js';
import { DAY_MS } from '../../lib/time.js';

/** Wire forms of an integer amount: decimal text for orders and invoices, a number for transactions and refunds. */
export const decimalText = (minor: number, currency: string): string => formatMinor(minor, currencyDigits(currency));
export const majorNumber = (minor: number, currency: string): number => fromMinor(minor, currencyDigits(currency));

const symbols = new Map<string, string>();

/** The currency's usual English symbol: $ for USD, € for EUR, ¥ for JPY, CA$ for CAD. */
export function currencySymbol(currency: string): string {
  let symbol = symbols.get(currency);
  if (symbol === undefined) {
    try {
      const parts = new Intl.NumberFormat('en-US', { style: 'currency', currency }).formatToParts(0);
      symbol = parts.find((p) => p.type === 'currency')?.value ?? currency;
    } catch {
      symbol = currency;
    }
    symbols.set(currency, symbol);
  }
  return symbol;
}

export interface DateRange {
  /** Inclusive lower bound. */
  from?: Date;
  /** Exclusive upper bound. */
  before?: Date;
}


function parseBound(text: string, name: string, end: boolean): Date {
  const trimmed = text.trim();
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  if (day) {
    const at = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
    if (at.toISOString().slice(0, 10) !== trimmed) throw notACalendarDate(name, text);
    // A whole day: end_date=2026-01-31 includes everything on the 31st.
    return end ? new Date(at.getTime() + DAY_MS) : at;
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) {
    const at = new Date(trimmed);
    if (!Number.isNaN(at.getTime())) return end ? new Date(at.getTime() + 1) : at;
  }
  throw notADate(name, text);
}

/** start_date / end_date of the list endpoints, both inclusive. */
export function dateRange(start: string | undefined, end: string | undefined): DateRange {
  const range: DateRange = {};
  if (start !== undefined && start.trim() !== '') range.from = parseBound(start, 'start_date', false);
  if (end !== undefined && end.trim() !== '') range.before = parseBound(end, 'end_date', true);
  return range;
}

/** The search term of a list, or undefined when blank. */
export const searchTerm = (search: string | undefined): string | undefined => search?.trim() || undefined;
