import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { CATALOGUES, LANGUAGES, browserLanguage, languageFor } from '../../dashboard/src/i18n/language.js';

/**
 * The dashboard's catalogues (issue 29, decision 0108): every language has exactly the keys of
 * English, each message is ICU that compiles in its language, with the same placeholders (those
 * inside plural and select branches too). The build already refuses a missing key; this also
 * refuses an extra one, a renamed placeholder and a broken message.
 */
type Element = { type: number; value?: unknown; options?: Record<string, { value: Element[] }>; children?: Element[] };

/** The names a message's placeholders use, at every depth. */
function argumentsOf(message: string, language: string): string[] {
  const names = new Set<string>();
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      // 1 argument, 2 number, 3 date, 4 time, 5 select, 6 plural, 8 tag.
      if (element.type >= 1 && element.type <= 6 && typeof element.value === 'string') names.add(element.value);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
      if (element.children) walk(element.children);
    }
  };
  walk(new IntlMessageFormat(message, language).getAst() as unknown as Element[]);
  return [...names].sort();
}

describe("the dashboard's catalogues", () => {
  const english = CATALOGUES.en as Record<string, string>;

  it('speaks the five languages of the hosted pages and emails', () => {
    expect([...LANGUAGES].sort()).toEqual(['de', 'en', 'es', 'fr', 'ja']);
    expect(Object.keys(english).length).toBeGreaterThan(300);
  });

  for (const language of LANGUAGES) {
    it(`${language} has exactly the keys of English, each with its placeholders`, () => {
      const catalogue = CATALOGUES[language] as Record<string, string>;
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
      for (const [key, message] of Object.entries(english)) {
        expect(catalogue[key]!.trim(), `${language} ${key} is empty`).not.toBe('');
        expect(argumentsOf(catalogue[key]!, language), `${language} ${key}`).toEqual(argumentsOf(message, 'en'));
      }
    });
  }

  it('writes the other languages in their own words, not English left untranslated', () => {
    // Words that are the same in both languages (MRR, Status, Name…) are few: most messages differ.
    for (const language of ['de', 'fr', 'es', 'ja'] as const) {
      const catalogue = CATALOGUES[language] as Record<string, string>;
      const same = Object.keys(english).filter((key) => catalogue[key] === english[key] && /[a-z]{4}/.test(english[key]!));
      expect(same.length / Object.keys(english).length, `${language}: ${same.slice(0, 20).join(', ')}`).toBeLessThan(0.08);
    }
  });

  it("chooses the person's language, else the browser's first it speaks, else English", () => {
    expect(languageFor('ja', ['de-DE', 'en'])).toBe('ja');
    expect(languageFor(null, ['pt-BR', 'de-AT', 'en'])).toBe('de');
    expect(languageFor(undefined, ['en-GB', 'fr'])).toBe('en');
    expect(languageFor('xx', ['pt-BR'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
  });
});
