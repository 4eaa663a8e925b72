import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries/index.js';

// The package's main entry registers its 80-odd languages (about 9 MB resident); names in other
// languages come from Intl, so only English is registered (npm run bench -- start).
countries.registerLocale(createRequire(import.meta.url)('i18n-iso-countries/langs/en.json'));

/** The EU member states: one VAT system (VIES), and the reverse charge of Art. 196 between them. */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE',
  'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
]);

/** The upper-cased ISO 3166-1 alpha-2 code, or null when it is not one. */
export function normalizeCountry(code: string): string | null {
  const upper = code.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(upper) && countries.isValid(upper) ? upper : null;
}

/** The name of an ISO 3166-1 alpha-2 code in a language ("India" for IN in English), or '' when it is not one. */
export function countryName(code: string, lang = 'en'): string {
  if (lang === 'en') return countries.getName(code, 'en') ?? '';
  return countries.isValid(code) ? (new Intl.DisplayNames([lang], { type: 'region' }).of(code.toUpperCase()) ?? '') : '';
}

const named = new Map<string, Array<{ code: string; name: string }>>();

/** Every country with its name in a language, sorted by name in that language (for the hosted checkout's country picker). */
export function countryNames(lang = 'en'): Array<{ code: string; name: string }> {
  let list = named.get(lang);
  if (!list) {
    const display = new Intl.DisplayNames([lang], { type: 'region' });
    list = Object.keys(countries.getAlpha2Codes())
      .map((code) => ({ code, name: display.of(code) ?? code }))
      .sort((a, b) => a.name.localeCompare(b.name, lang));
    named.set(lang, list);
  }
  return list;
}

/** The country of a stored billing address (a JSON object), or null. */
export function countryOfAddress(address: unknown): string | null {
  const country = (address as { country?: unknown } | null | undefined)?.country;
  return typeof country === 'string' && country !== '' ? country : null;
}

/**
 * A stored billing address moved to `country`: unchanged when it is already there; else the
 * country alone, since the street, city and postal code of another country no longer apply.
 */
export function addressInCountry(address: unknown, country: string): Record<string, unknown> {
  const stored = (address ?? {}) as Record<string, unknown>;
  return countryOfAddress(stored) === country ? stored : { country };
}
