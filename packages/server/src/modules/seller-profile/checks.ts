/**
 * The checks of a profile's values that a schema cannot make: real countries, tax ids
 * that pass their country's format and checksum (the stdnum library), IANA time zones.
 */
import { validateEntity } from 'stdnum';
import type { TaxRegistration } from '@billow/contract';
import { normalizeCountry } from '../../lib/countries.js';
import { invalidTaxId, invoicePrefixCollides, taxCountryTwice, unknownCountry, unknownTimeZone } from './errors.js';

const PLAIN_TAX_ID = /^[A-Z0-9]{2,40}$/;
let zones: Set<string> | undefined;

export function checkedCountry(field: string, code: string): string {
  const country = normalizeCountry(code);
  if (!country) throw unknownCountry(field, code);
  return country;
}

/** The tax id as stored: upper case, without the spaces, dots and dashes people write in it. */
const compactTaxId = (taxId: string) => taxId.toUpperCase().replace(/[\s.\-/]/g, '');

export function checkedTaxRegistration(input: { country: string; taxId: string }): TaxRegistration {
  const country = checkedCountry('taxRegistrations.country', input.country);
  const taxId = compactTaxId(input.taxId);
  const result = validateEntity(country, taxId);
  if (result.checked) {
    if (!result.isValid) throw invalidTaxId(country, input.taxId, 'its format or check digits are wrong');
    return { country, taxId, scheme: result.matchedValidators?.[0]?.name ?? null };
  }
  if (!PLAIN_TAX_ID.test(taxId)) throw invalidTaxId(country, input.taxId, 'only letters and digits are expected');
  return { country, taxId, scheme: null };
}

export function checkedTaxRegistrations(inputs: Array<{ country: string; taxId: string }>): TaxRegistration[] {
  const checked = inputs.map(checkedTaxRegistration);
  const seen = new Set<string>();
  for (const registration of checked) {
    if (seen.has(registration.country)) throw taxCountryTwice(registration.country);
    seen.add(registration.country);
  }
  return checked;
}

export function checkedTimeZone(timeZone: string): string {
  zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  if (!zones.has(timeZone)) throw unknownTimeZone(timeZone);
  return timeZone;
}

/** Credit notes are numbered `<prefix>-CN-<year>-<n>`: an invoice prefix ending in -CN would number invoices like another prefix's credit notes. */
export function checkedInvoicePrefix<T extends string | null | undefined>(prefix: T): T {
  if (typeof prefix === 'string' && prefix.endsWith('-CN')) throw invoicePrefixCollides(prefix);
  return prefix;
}
