/**
 * The dashboard's words in the person's language (decision 0108): ICU messages of the catalogues
 * here, through intl-messageformat (the library of the hosted pages and emails). One language at a
 * time for the whole page: `chooseLanguage` sets it while rendering (the session provider does,
 * from the person's account, else the browser's languages, else English) and every `t`, and
 * every figure of format.ts, follows it.
 */
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import { de } from './de';
import { en, type Catalogue, type MessageKey } from './en';
import { es } from './es';
import { fr } from './fr';
import { ja } from './ja';

export type { MessageKey } from './en';

/** The languages of the dashboard, those of the hosted pages and emails; the first is the fallback. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

export const CATALOGUES: Record<Language, Catalogue> = { en, de, fr, es, ja };

/** Each language's name in itself, as the language menu offers it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español', ja: '日本語' };

export const isLanguage = (tag: unknown): tag is Language => typeof tag === 'string' && (LANGUAGES as readonly string[]).includes(tag);

/** The first of the browser's languages the dashboard speaks ("de-AT" is German), else English. */
export function browserLanguage(tags: readonly string[]): Language {
  for (const tag of tags) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/** The person's own choice, else the browser's languages, else English. */
export function languageFor(preference: string | null | undefined, tags: readonly string[]): Language {
  return isLanguage(preference) ? preference : browserLanguage(tags);
}

export function navigatorLanguages(): readonly string[] {
  return navigator.languages?.length ? navigator.languages : [navigator.language ?? 'en'];
}

let current: Language = 'en';
let locale = 'en';

/**
 * The language every word and figure now follows. Intl formats in the browser's own variant of it
 * when it has one (an en-GB browser keeps its day-first dates), else in the language itself.
 */
export function chooseLanguage(language: Language, tags: readonly string[] = navigatorLanguages()): void {
  current = language;
  locale = tags.find((tag) => tag.toLowerCase().split('-')[0] === language) ?? language;
}

export const currentLanguage = (): Language => current;

/** The locale Intl formats numbers, money and dates in. */
export const intlLocale = (): string => locale;

const compiled = new Map<string, IntlMessageFormat>();

/** A message of the current language's catalogue with its placeholders filled in. */
export function t(key: MessageKey, values?: Record<string, PrimitiveType>): string {
  const id = `${current}:${key}`;
  let format = compiled.get(id);
  if (!format) {
    format = new IntlMessageFormat(CATALOGUES[current][key], current);
    compiled.set(id, format);
  }
  return String(format.format(values));
}

/** Whether the catalogues have a message under this key (a wire value's words, an error's code). */
export const hasMessage = (key: string): key is MessageKey => Object.prototype.hasOwnProperty.call(en, key);
