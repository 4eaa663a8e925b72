/**
 * The seller profile's form as text fields (what a person types), and the PATCH that turns
 * what they changed into the API's fields: a blank field clears its value, the address is
 * whole or nothing, tax registrations replace the list.
 */
import type { SellerProfile, SellerProfileUpdate } from '@billow/contract';

export const TEXT_FIELDS = [
  'displayName',
  'legalName',
  'supportEmail',
  'supportUrl',
  'websiteUrl',
  'termsUrl',
  'privacyUrl',
  'refundPolicyUrl',
  'brandColor',
  'invoicePrefix',
  'timeZone',
] as const;
export const ADDRESS_FIELDS = ['line1', 'line2', 'city', 'postalCode', 'region', 'country'] as const;

export type TextField = (typeof TEXT_FIELDS)[number];
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type Language = SellerProfile['defaultLanguage'];
export interface TaxRow {
  /** Keeps a row's inputs (and their focus) as rows above it are removed. */
  key: number;
  country: string;
  taxId: string;
}

export interface Draft {
  text: Record<TextField, string>;
  address: Record<AddressField, string>;
  language: Language;
  taxRegistrations: TaxRow[];
}

let rows = 0;
export const taxRow = (country = '', taxId = ''): TaxRow => ({ key: ++rows, country, taxId });

export function draftOf(profile: SellerProfile): Draft {
  const text = Object.fromEntries(TEXT_FIELDS.map((name) => [name, profile[name] ?? ''])) as Record<TextField, string>;
  const address = Object.fromEntries(ADDRESS_FIELDS.map((name) => [name, profile.address?.[name] ?? ''])) as Record<AddressField, string>;
  return { text, address, language: profile.defaultLanguage, taxRegistrations: profile.taxRegistrations.map((r) => taxRow(r.country, r.taxId)) };
}

const orNull = (value: string) => value.trim() || null;

function addressOf(address: Draft['address']): SellerProfileUpdate['address'] {
  if (ADDRESS_FIELDS.every((name) => !address[name].trim())) return null;
  const optional = (name: 'line2' | 'postalCode' | 'region') => orNull(address[name]);
  return { line1: address.line1.trim(), line2: optional('line2'), city: address.city.trim(), postalCode: optional('postalCode'), region: optional('region'), country: address.country.trim().toUpperCase() };
}

/** The fields the person changed, as the API takes them; empty when nothing changed. */
export function patchOf(draft: Draft, saved: SellerProfile): SellerProfileUpdate {
  const patch: Record<string, unknown> = {};
  for (const name of TEXT_FIELDS) {
    const value = name === 'brandColor' || name === 'invoicePrefix' ? orNull(draft.text[name].toUpperCase()) : orNull(draft.text[name]);
    if (value !== (saved[name] ?? null)) patch[name] = value;
  }
  if (draft.language !== saved.defaultLanguage) patch.defaultLanguage = draft.language;
  const address = addressOf(draft.address);
  if (JSON.stringify(address) !== JSON.stringify(saved.address)) patch.address = address;
  const taxes = draft.taxRegistrations.map((r) => ({ country: r.country.trim().toUpperCase(), taxId: r.taxId.trim() }));
  if (JSON.stringify(taxes) !== JSON.stringify(saved.taxRegistrations.map(({ country, taxId }) => ({ country, taxId })))) patch.taxRegistrations = taxes;
  return patch as SellerProfileUpdate;
}
