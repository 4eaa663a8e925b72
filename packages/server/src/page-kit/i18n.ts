/**
 * The hosted pages' words in the buyer's language: ICU messages (intl-messageformat) from
 * the catalogues in messages/, money through Intl in the same language (decision 0068).
 */
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import { countryName } from '../lib/countries.js';
import { decimalText } from '../modules/ledger/format.js';
import { money as englishMoney } from './text.js';
import { de } from './messages/de.js';
import { en, type Catalogue, type MessageKey } from './messages/en.js';
import { es } from './messages/es.js';
import { fr } from './messages/fr.js';
import { ja } from './messages/ja.js';

export type { MessageKey } from './messages/en.js';

/** The languages hosted pages are written in; the first is the fallback. */
export const PAGE_LANGUAGES = ['en', 'de', 'fr', 'es', 'ja'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

export const CATALOGUES: Record<PageLanguage, Catalogue> = { en, de, fr, es, ja };

export const isPageLanguage = (tag: string): tag is PageLanguage => (PAGE_LANGUAGES as readonly string[]).includes(tag);

export interface Translator {
  lang: PageLanguage;
  /** A message of the catalogue with its placeholders filled in. */
  t(key: MessageKey, values?: Record<string, PrimitiveType>): string;
  /** An amount in minor units, as this language writes money (one format for the whole page). */
  money(minor: number, currency: string): string;
  /** A problem for the buyer in this language: its catalogue message when it has one (a `country` code among its values named), else its English words. */
  problem(problem: BuyerProblem): string;
  /** A charge period's name ("Monthly", "Monatlich"); never the wire code. */
  period(period: string): string;
  /** A calendar day as this language writes it ("3 Dec 2026", "03.12.2026", "2026/12/03"), in UTC. */
  date(at: Date | string): string;
  /** A country's name in this language ("DE" is "Germany", "Deutschland", "ドイツ"); the code when unknown. */
  country(code: string): string;
}

/** What went wrong, for the person at the page: the English words, and the catalogue's key when it has them. */
export interface BuyerProblem {
  field: string | null;
  message: string;
  key?: string;
  values?: Record<string, string | number>;
}

const isKey = (key: string | undefined): key is MessageKey => key !== undefined && key in en;

const compiled = new Map<string, IntlMessageFormat>();

function message(lang: PageLanguage, key: MessageKey): IntlMessageFormat {
  const id = `${lang}:${key}`;
  let format = compiled.get(id);
  if (!format) {
    format = new IntlMessageFormat(CATALOGUES[lang][key], lang);
    compiled.set(id, format);
  }
  return format;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Intl formats the exact decimal text (never a float): "12,50 €" in German, "￥1,200" in Japanese. */
function intlMoney(lang: PageLanguage, minor: number, currency: string): string {
  const id = `${lang}:${currency}`;
  let format = moneyFormats.get(id);
  if (!format) {
    format = new Intl.NumberFormat(lang, { style: 'currency', currency: currency.toUpperCase() });
    moneyFormats.set(id, format);
  }
  return format.format(decimalText(minor, currency) as unknown as number);
}

/** English pages write the day first ("3 Dec 2026"), unambiguous on both sides of the Atlantic. */
const DATE_LOCALES: Record<PageLanguage, string> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', ja: 'ja-JP' };
const dateFormats = new Map<PageLanguage, Intl.DateTimeFormat>();

function intlDate(lang: PageLanguage, at: Date | string): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return '—';
  let format = dateFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(DATE_LOCALES[lang], { dateStyle: 'medium', timeZone: 'UTC' });
    dateFormats.set(lang, format);
  }
  return format.format(date);
}

const translators = new Map<PageLanguage, Translator>();

export function translator(lang: PageLanguage): Translator {
  let found = translators.get(lang);
  if (!found) {
    found = {
      lang,
      t: (key, values) => String(message(lang, key).format(values)),
      // English keeps the pages' established "$12.50" so existing pages read as before.
      money: (minor, currency) => (lang === 'en' ? englishMoney(minor, currency) : intlMoney(lang, minor, currency)),
      problem: (p) => {
        if (!isKey(p.key)) return p.message;
        // A `country` given as its ISO code is named in the page's language ("FR" is "France", "Frankreich").
        const country = p.values?.country;
        const values = typeof country === 'string' && /^[A-Z]{2}$/.test(country) ? { ...p.values, country: countryName(country, lang) || country } : p.values;
        return String(message(lang, p.key).format(values));
      },
      period: (period) => {
        const key = `period.${period}`;
        return key in en ? String(message(lang, key as MessageKey).format()) : period;
      },
      date: (at) => intlDate(lang, at),
      country: (code) => countryName(code, lang) || code,
    };
    translators.set(lang, found);
  }
  return found;
}

export const ENGLISH: Translator = translator('en');
