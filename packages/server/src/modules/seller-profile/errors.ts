import { invalid, notFound } from '../../lib/domain-error.js';

export const unknownCountry = (field: string, code: string) =>
  invalid(`${field}: "${code}" is not an ISO 3166-1 alpha-2 country code`, 'invalid_country');

export const invalidTaxId = (at: string, country: string, taxId: string, reason: string) =>
  invalid(`${at}: "${taxId}" is not a valid tax id of ${country} (${reason})`, 'invalid_tax_id');

export const taxCountryTwice = (at: string, country: string) =>
  invalid(`${at}: ${country} is listed twice; give one tax id per country`, 'invalid_tax_id');

export const unknownTimeZone = (timeZone: string) =>
  invalid(`timeZone: "${timeZone}" is not an IANA time zone (such as Europe/Berlin or America/New_York)`, 'invalid_time_zone');

export const logoTooLarge = (maxBytes: number) =>
  invalid(`logoImageKey: a logo may be at most ${maxBytes / 1024} KiB; make it smaller and upload it again`, 'invalid_logo');

export const logoNotAnImage = () =>
  invalid('logoImageKey: the uploaded file is not a PNG or JPEG image', 'invalid_logo');

export const logoDimensions = (width: number, height: number, min: number, max: number) =>
  invalid(`logoImageKey: the logo is ${width}×${height} px; each side must be between ${min} and ${max} px`, 'invalid_logo');

export const logoNotFound = () => notFound('No such logo', 'logo_not_found');

export const logoUploadsUnavailable = () =>
  invalid('logoImageKey: set the logo through the API (PATCH /api/v1/seller-profile/), which takes uploads', 'invalid_logo');

export const invoicePrefixCollides = (prefix: string) =>
  invalid(
    `invoicePrefix: "${prefix}" would number invoices like the credit notes of "${prefix.slice(0, -3)}" (${prefix}-2026-000001); choose a prefix that does not end in -CN`,
    'invalid_invoice_prefix',
  );
