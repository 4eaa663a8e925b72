import countries from 'i18n-iso-countries';

/** The upper-cased ISO 3166-1 alpha-2 code, or null when it is not one. */
export function normalizeCountry(code: string): string | null {
  const upper = code.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(upper) && countries.isValid(upper) ? upper : null;
}

/** The English name of an ISO 3166-1 alpha-2 code ("India" for IN), or '' when it is not one. */
export function countryName(code: string): string {
  return countries.getName(code, 'en') ?? '';
}
