import countryToCurrency from 'country-to-currency';

/**
 * The currency a country pays in (ISO 3166-1 alpha-2 → ISO 4217, from the
 * country-to-currency package), or null. Location pricing offers a plan's price in
 * this currency when the seller has set one (decision 0036).
 */
export function currencyOfCountry(countryCode: string | null | undefined): string | null {
  if (!countryCode) return null;
  return (countryToCurrency as Record<string, string | undefined>)[countryCode.toUpperCase()] ?? null;
}
