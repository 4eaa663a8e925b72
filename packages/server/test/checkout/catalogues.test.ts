/**
 * The hosted pages' catalogues (decision 0068): every language has every English key, the
 * same placeholders, and messages that compile and format (ICU MessageFormat).
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { CATALOGUES, PAGE_LANGUAGES } from '../../src/page-kit/i18n.js';

const english = CATALOGUES.en;

/** The names of a message's arguments: `{name}`, `{count, plural, …}`, `{period, select, …}`. */
function argumentsOf(message: string): string[] {
  return [...new Set([...message.matchAll(/\{\s*([A-Za-z]\w*)\s*[,}]/g)].map((m) => m[1]!))].sort();
}

const SAMPLE = { amount: '€1.00', code: 'SPRING', count: 2, country: 'DE', days: 14, digits: 3, name: 'Pro', payments: 3, percent: 20, period: 'MONTHLY', product: 'Widget', quantity: 4, rate: 19, seller: 'Acme', trial: 'yes' };

describe('the hosted pages’ catalogues', () => {
  it('are the five languages', () => {
    expect([...PAGE_LANGUAGES].sort()).toEqual(['de', 'en', 'es', 'fr', 'ja']);
  });

  for (const lang of PAGE_LANGUAGES) {
    it(`${lang} has every key of English with the same placeholders, and nothing else`, () => {
      const catalogue = CATALOGUES[lang] as Record<string, string>;
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
      for (const [key, message] of Object.entries(english)) {
        expect(argumentsOf(catalogue[key]!), `${lang} ${key}`).toEqual(argumentsOf(message));
      }
    });

    it(`${lang}'s messages compile and format with no placeholder left`, () => {
      for (const [key, message] of Object.entries(CATALOGUES[lang])) {
        const text = String(new IntlMessageFormat(message, lang).format(SAMPLE));
        expect(text, `${lang} ${key}`).not.toMatch(/[{}]/);
        expect(text.trim().length, `${lang} ${key}`).toBeGreaterThan(0);
      }
    });
  }

  it('a missing placeholder is caught (the check can fail)', () => {
    expect(argumentsOf('Pay {amount}')).toEqual(['amount']);
    expect(argumentsOf('Pay')).not.toEqual(argumentsOf('Pay {amount}'));
    expect(argumentsOf('{n, plural, one {# item} other {# items}} for {who}')).toEqual(['n', 'who']);
  });
});
