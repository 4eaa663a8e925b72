import Negotiator from 'negotiator';
import { isPageLanguage, PAGE_LANGUAGES, type PageLanguage } from './i18n.js';

/** What decides a hosted page's language, strongest first. */
export interface LanguageHints {
  /** The customer's own `locale` (an IETF tag such as "ja" or "de-CH"), when the seller or a checkout set one. */
  customerLocale?: string | null;
  /** The browser's Accept-Language header. */
  acceptLanguage?: string | string[] | null;
  /** The seller profile's default language. */
  sellerLanguage?: string | null;
}

/** A tag's language among ours: "de-CH" reads as German; anything else as nothing. */
export function pageLanguageOf(tag: string | null | undefined): PageLanguage | null {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isPageLanguage(base) ? base : null;
}

/** The customer's locale, else the browser's best match, else the seller's language, else English. */
export function negotiateLanguage(hints: LanguageHints): PageLanguage {
  const customer = pageLanguageOf(hints.customerLocale);
  if (customer) return customer;
  if (hints.acceptLanguage) {
    const header = Array.isArray(hints.acceptLanguage) ? hints.acceptLanguage.join(',') : hints.acceptLanguage;
    // Negotiator matches "de-DE" to "de" (a prefix match) and honours q-values and "*".
    const best = new Negotiator({ headers: { 'accept-language': header } }).language([...PAGE_LANGUAGES]);
    const match = pageLanguageOf(best);
    // A bare "*" states no preference: the seller's language decides.
    if (match && header.trim() !== '*') return match;
  }
  return pageLanguageOf(hints.sellerLanguage) ?? 'en';
}
