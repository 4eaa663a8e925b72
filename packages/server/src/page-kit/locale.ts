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

/** The browser's best match among our languages (an Accept-Language header); null when it names none of them. */
export function browserLanguage(acceptLanguage: string | string[] | null | undefined): PageLanguage | null {
  if (!acceptLanguage) return null;
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  // A bare "*" states no preference: the seller's language decides.
  if (header.trim() === '*') return null;
  // Negotiator matches "de-DE" to "de" (a prefix match) and honours q-values.
  return pageLanguageOf(new Negotiator({ headers: { 'accept-language': header } }).language([...PAGE_LANGUAGES]));
}

/** The customer's locale, else the browser's best match, else the seller's language, else English. */
export function negotiateLanguage(hints: LanguageHints): PageLanguage {
  return pageLanguageOf(hints.customerLocale) ?? browserLanguage(hints.acceptLanguage) ?? pageLanguageOf(hints.sellerLanguage) ?? 'en';
}
