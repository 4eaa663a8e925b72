import { invalid } from '../../lib/domain-error.js';

export const unknownCountry = (field: string, code: string) =>
  invalid(`${field}: "${code}" is not an ISO 3166-1 alpha-2 country code`, 'invalid_country');

export const invalidTaxId = (country: string, taxId: string, reason: string) =>
  invalid(`taxRegistrations: "${taxId}" is not a valid tax id of ${country} (${reason})`, 'invalid_tax_id');

export const taxCountryTwice = (country: string) =>
  invalid(`taxRegistrations: ${country} is listed twice; give one tax id per country`, 'invalid_tax_id');

export const unknownTimeZone = (timeZone: string) =>
  invalid(`timeZone: "${timeZone}" is not an IANA time zone (such as Europe/Berlin or America/New_York)`, 'invalid_time_zone');
