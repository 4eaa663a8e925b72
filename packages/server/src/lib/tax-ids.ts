/**
 * Tax ids checked offline: their country's format and check digits, by the stdnum library.
 * The seller's registrations (seller-profile) and the buyers' business ids (customers) both
 * read them here. Nothing here reaches the network (the VIES check is lib/vies.ts).
 */
import { createRequire } from 'node:module';
import type * as StdnumModule from 'stdnum';
import { EU_COUNTRIES } from './countries.js';

type Stdnum = typeof StdnumModule;
let loaded: Stdnum | undefined;
/**
 * The library, loaded on the first tax id checked: loading it took a quarter of a second of
 * every process start (each CLI command, each server), most of which never check one.
 */
const library = (): Stdnum => (loaded ??= createRequire(import.meta.url)('stdnum') as Stdnum);

/** The prefix of an EU VAT id: the country code, except Greece's EL. */
export const vatPrefix = (country: string) => (country === 'GR' ? 'EL' : country);
const countryOfPrefix = (prefix: string) => (prefix === 'EL' ? 'GR' : prefix);

interface Validator {
  validate(value: string): { isValid: boolean; compact?: string; error?: { name?: string } };
}

interface TaxIdType {
  /** The countries the type belongs to. */
  countries: ReadonlySet<string>;
  validator(country: string): Validator | undefined;
}

const one = (country: string, validator: (library: Stdnum['stdnum']) => Validator | undefined): TaxIdType => ({
  countries: new Set([country]),
  validator: () => validator(library().stdnum),
});

/**
 * The business tax ids a buyer may give, by type (the names Stripe and others use). The
 * first type of a country is the one an id without a type is tried as first.
 */
export const TAX_ID_TYPES: Readonly<Record<string, TaxIdType>> = {
  eu_vat: { countries: EU_COUNTRIES, validator: (country) => library().euVat[country]?.[0] as Validator | undefined },
  gb_vat: one('GB', (s) => s.GB?.vat),
  ch_vat: one('CH', (s) => s.CH?.vat),
  ch_uid: one('CH', (s) => s.CH?.uid),
  no_vat: one('NO', (s) => s.NO?.mva),
  no_orgnr: one('NO', (s) => s.NO?.orgnr),
  au_abn: one('AU', (s) => s.AU?.abn),
  ca_gst_hst: one('CA', (s) => s.CA?.gst),
  ca_bn: one('CA', (s) => s.CA?.bn),
  nz_gst: one('NZ', (s) => s.NZ?.ird),
  in_gst: one('IN', (s) => s.IN?.gstin),
  sg_uen: one('SG', (s) => s.SG?.uen),
  is_vat: one('IS', (s) => s.IS?.vsk),
  us_ein: one('US', (s) => s.US?.ein),
};

/** Every type name, `other` last: an id of a country no type covers, checked as the country's business id. */
export const TAX_ID_TYPE_NAMES = [...Object.keys(TAX_ID_TYPES), 'other'] as const;

/** Upper case, without the spaces, dots, dashes and slashes people write in tax ids. */
export const compactTaxId = (taxId: string) => taxId.toUpperCase().replace(/[\s.\-/]/g, '');

const PLAIN_TAX_ID = /^[A-Z0-9]{2,40}$/;

const PROBLEMS: Record<string, string> = {
  InvalidChecksum: 'its check digits are wrong',
  InvalidLength: 'it has the wrong number of characters',
  InvalidFormat: 'its format is wrong',
  InvalidComponent: 'a part of it is not valid',
};
const problemOf = (error: { name?: string } | undefined) => PROBLEMS[error?.name ?? ''] ?? 'its format or check digits are wrong';

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * A business id of the country as its validators know it (validateEntity): checked where
 * stdnum knows the country, else letters and digits only. `scheme` names the matching one.
 */
export function checkEntityTaxId(country: string, raw: string): Checked<{ taxId: string; scheme: string | null }> {
  const taxId = compactTaxId(raw);
  const result = library().validateEntity(country, taxId);
  if (result.checked) {
    if (!result.isValid) return { ok: false, problem: 'its format or check digits are wrong' };
    return { ok: true, value: { taxId, scheme: result.matchedValidators?.[0]?.name ?? null } };
  }
  if (!PLAIN_TAX_ID.test(taxId)) return { ok: false, problem: 'only letters and digits are expected' };
  return { ok: true, value: { taxId, scheme: null } };
}

export interface TaxId {
  type: string;
  /** As printed: upper case and compact; an EU VAT id with its country prefix (EL for Greece). */
  value: string;
  country: string;
}

/** The country a VAT id names by its own prefix (FR40303265045, EL094259216, GB980780684, CHE…MWST), if any. */
export function countryOfVatPrefix(raw: string): string | null {
  const compact = compactTaxId(raw);
  if (compact.startsWith('CHE')) return 'CH';
  const prefix = countryOfPrefix(compact.slice(0, 2));
  return EU_COUNTRIES.has(prefix) || prefix === 'GB' || prefix === 'NO' ? prefix : null;
}

/** VAT ids are printed with their country's prefix, which stdnum's compact form drops. */
const PRINTED_PREFIX: Record<string, (country: string) => string> = { eu_vat: vatPrefix, gb_vat: () => 'GB', no_vat: () => 'NO' };

function asType(type: string, country: string, raw: string): Checked<TaxId> {
  const validator = TAX_ID_TYPES[type]?.validator(country);
  if (!validator) return { ok: false, problem: `the ${type} type is not known for ${country}` };
  const result = validator.validate(compactTaxId(raw));
  if (!result.isValid) return { ok: false, problem: problemOf(result.error) };
  const compact = result.compact ?? compactTaxId(raw);
  const prefix = PRINTED_PREFIX[type]?.(country) ?? '';
  const value = compact.startsWith(prefix) ? compact : `${prefix}${compact}`;
  return { ok: true, value: { type, value, country } };
}

/**
 * A buyer's tax id of the country, checked offline. With a type, as that type (which must
 * belong to the country); without, as the first of the country's types it passes, and for a
 * country no type covers, as its business id (`other`).
 */
export function checkTaxId(country: string, raw: string, type?: string | null): Checked<TaxId> {
  if (type && type !== 'other') {
    if (!TAX_ID_TYPES[type]) return { ok: false, problem: `"${type}" is not a tax id type Billow knows` };
    if (!TAX_ID_TYPES[type]!.countries.has(country)) return { ok: false, problem: `a ${type} id is not one of ${country}` };
    return asType(type, country, raw);
  }
  const candidates = type === 'other' ? [] : Object.keys(TAX_ID_TYPES).filter((name) => TAX_ID_TYPES[name]!.countries.has(country));
  let first: Checked<TaxId> | null = null;
  for (const name of candidates) {
    const checked = asType(name, country, raw);
    if (checked.ok) return checked;
    first ??= checked;
  }
  if (first) return first;
  const entity = checkEntityTaxId(country, raw);
  return entity.ok ? { ok: true, value: { type: 'other', value: entity.value.taxId, country } } : entity;
}

/** The country of a type that belongs to one country only (gb_vat: GB), else null. */
export function countryOfType(type: string | null | undefined): string | null {
  const countries = type ? TAX_ID_TYPES[type]?.countries : undefined;
  return countries && countries.size === 1 ? [...countries][0]! : null;
}
