/**
 * The checks of a profile's values that a schema cannot make: real countries, tax ids
 * that pass their country's format and checksum (the stdnum library), IANA time zones.
 */
import type { TaxRegistration } from '@billow/contract';
import { normalizeCountry } from '../../lib/countries.js';
import { checkEntityTaxId } from '../../lib/tax-ids.js';
import { invalidTaxId, invoicePrefixCollides, taxCountryTwice, unknownCountry, unknownTimeZone } from './errors.js';

let zones: Set<string> | undefined;

export function checkedCountry(field: string, code: string): string {
  const country = normalizeCountry(code);
  if (!country) throw unknownCountry(field, code);
  return country;
}

/** One registration of the list; a refusal names its place (`taxRegistrations[1]`), so that a form can show it beside the row. */
export function checkedTaxRegistration(input: { country: string; taxId: string }, index: number): TaxRegistration {
  const at = `taxRegistrations[${index}]`;
  const country = checkedCountry(`${at}.country`, input.country);
  const checked = checkEntityTaxId(country, input.taxId);
  if (!checked.ok) throw invalidTaxId(at, country, input.taxId, checked.problem);
  return { country, ...checked.value };
}

export function checkedTaxRegistrations(inputs: Array<{ country: string; taxId: string }>): TaxRegistration[] {
  const checked = inputs.map(checkedTaxRegistration);
  const seen = new Set<string>();
  checked.forEach((registration, index) => {
    if (seen.has(registration.country)) throw taxCountryTwice(`taxRegistrations[${index}].country`, registration.country);
    seen.add(registration.country);
  });
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
