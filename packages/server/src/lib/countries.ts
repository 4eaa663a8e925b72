import countries from 'i18n-iso-countries';

/** The upper-cased ISO 3166-1 alpha-2 code, or null when it is not one. */
export function normalizeCountry(code: string): string | null {
  const upper = code.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(upper) && countries.isValid(upper) ? upper : null;
}
