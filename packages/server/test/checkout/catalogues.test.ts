/**
 * The hosted pages' catalogues (decision 0068): every language has every English key, the
 * same placeholders, and messages that compile and format (ICU MessageFormat).
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { CATALOGUES, PAGE_LANGUAGES } from '../../src/page-kit/i18n.js';

const english = CATALOGUES.en;

type Element = { type: number; value?: unknown; options?: Record<string, { value: Element[] }>; children?: Element[] };

/** The names of a message's arguments (`{name}`, `{count, plural, …}`, `{period, select, …}`), read from its parsed form. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: Element[]) => {
    for (const e of elements) {
      if (e.type >= 1 && e.type <= 6 && typeof e.value === 'string') names.add(e.value);
      for (const option of Object.values(e.options ?? {})) walk(option.value);
      if (e.children) walk(e.children);
    }
  };
  walk(new IntlMessageFormat(message, 'en').getAst() as unknown as Element[]);
  return [...names].sort();
}

const SAMPLE = {
  amount: '€1.00', brand: 'VISA', code: 'SPRING', count: 2, country: 'DE', date: '3 Dec 2026', days: 14, detail: 'plan_identifier: none', digits: 3,
  email: 'ann@example.com', month: 'September 2027', end: '2 Jan 2027', expiry: '12/2030', id: 'cus_1', last4: '4242', left: 2, limit: 3, minutes: 15, name: 'Pro',
  number: 'INV-1', organization: 'Acme & Co', inviter: 'Ada', role: 'support', payments: 3, percent: 20, period: 'MONTHLY', plan: 'Pro', problem: 'the tax ID is not valid', product: 'Widget', quantity: 4,
  rate: 19, reference: 'req-1', reset: 'EVERY_MONTH', seller: 'Acme', start: '3 Dec 2026', status: 'active', trial: 'yes', used: 1, value: 1000,
};

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
    // A select's branches are words, not arguments; an argument inside a branch is one.
    expect(argumentsOf('{status, select, active {active} other {{count, number} left}}')).toEqual(['count', 'status']);
  });
});
