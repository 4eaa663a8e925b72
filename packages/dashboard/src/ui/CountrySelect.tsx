import countries from 'i18n-iso-countries';
import type { SelectHTMLAttributes } from 'react';
import { countryName } from '../format';
import { intlLocale, t } from '../i18n/language';
import { Select } from './kit';

let sorted: { locale: string; options: Array<[string, string]> } | undefined;

/** Every ISO 3166-1 country, named in the dashboard's language and sorted by that name. */
function countryOptions(): Array<[string, string]> {
  const locale = intlLocale();
  if (sorted?.locale !== locale) {
    const options = Object.keys(countries.getAlpha2Codes()).map((code): [string, string] => [code, countryName(code)]);
    options.sort(([, a], [, b]) => a.localeCompare(b, locale));
    sorted = { locale, options };
  }
  return sorted.options;
}

/**
 * A country chosen by its name (the value is its code). A value that is no country (a code the
 * API refused, or none yet) stays choosable as it is, so that the field shows what will be sent.
 */
export function CountrySelect({ label, value, error, ...select }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; value: string; error?: string | null }) {
  const options = countryOptions();
  const known = options.some(([code]) => code === value);
  const first: Array<[string, string]> = known ? [] : [[value, value ? value : t('country.choose')]];
  return <Select label={label} options={[...first, ...options]} value={value} error={error} {...select} />;
}
