/** What other modules read of the seller's profile: the seller block documents carry, as of their issue. */
import type { Executor } from '../../db/transaction.js';
import { wallClock } from '../../lib/time-zone.js';
import { currentLogo, findProfile, organizationName } from './repo.js';
import { profileView } from './view.js';

export interface SellerBlock {
  /** The legal name where set, else the name buyers see. */
  name: string;
  displayName: string;
  address: Record<string, unknown> | null;
  taxIds: Array<{ country: string; taxId: string }>;
  email: string | null;
  website: string | null;
  invoicePrefix: string;
  timeZone: string;
  /** The language the seller's documents are written in. */
  language: string;
}

/** The prefix of invoice numbers when the seller set none. */
export const DEFAULT_INVOICE_PREFIX = 'INV';

export async function sellerBlock(db: Executor, organizationId: string, environmentId: string): Promise<SellerBlock> {
  const [row, name] = await Promise.all([findProfile(db, environmentId), organizationName(db, organizationId)]);
  const profile = profileView(row, name);
  return {
    name: profile.legalName ?? profile.displayName,
    displayName: profile.displayName,
    address: profile.address,
    taxIds: profile.taxRegistrations.map(({ country, taxId }) => ({ country, taxId })),
    email: profile.supportEmail,
    website: profile.websiteUrl,
    invoicePrefix: profile.invoicePrefix ?? DEFAULT_INVOICE_PREFIX,
    timeZone: profile.timeZone,
    language: profile.defaultLanguage,
  };
}

/** The countries the seller is registered for tax in (its profile's registrations): a buyer's tax decision reads them. */
export async function sellerTaxCountries(db: Executor, environmentId: string): Promise<string[]> {
  const row = await findProfile(db, environmentId);
  return (row?.tax_registrations ?? []).map((r) => r.country);
}

/** The seller profile's time zone, UTC when there is no profile: where the seller's days and months begin. */
export async function sellerTimeZone(db: Executor, environmentId: string): Promise<string> {
  return (await findProfile(db, environmentId))?.time_zone ?? 'UTC';
}

/** The calendar year of `at` where the seller is: the year an invoice number counts in. */
export function sellerYear(at: Date, timeZone: string): number {
  // A formatter kept per zone: making one per invoice took 3% of a renewal run's CPU.
  return wallClock(at, timeZone).year;
}

/** What hosted pages show of the seller: their name, the legal entity, contacts and legal links. */
export interface SellerOnPages {
  displayName: string;
  legalName: string | null;
  supportEmail: string | null;
  supportUrl: string | null;
  websiteUrl: string | null;
  termsUrl: string | null;
  privacyUrl: string | null;
  refundPolicyUrl: string | null;
  brandColor: string | null;
  /** The logo's address below the site's root (pages are on the same origin); null without one. */
  logoPath: string | null;
  /** The seller's default language: a hosted page's language when neither the customer nor the browser names one of ours. */
  language: string;
}

export async function sellerOnPages(db: Executor, organizationId: string, environmentId: string): Promise<SellerOnPages> {
  const [row, name] = await Promise.all([findProfile(db, environmentId), organizationName(db, organizationId)]);
  const p = profileView(row, name);
  return {
    displayName: p.displayName,
    legalName: p.legalName,
    supportEmail: p.supportEmail,
    supportUrl: p.supportUrl,
    websiteUrl: p.websiteUrl,
    termsUrl: p.termsUrl,
    privacyUrl: p.privacyUrl,
    refundPolicyUrl: p.refundPolicyUrl,
    brandColor: p.brandColor,
    logoPath: p.logoUrl,
    language: p.defaultLanguage,
  };
}

/** The seller's logo as documents embed it (PNG or JPEG bytes and their size in pixels); null without one. */
export async function sellerLogo(db: Executor, environmentId: string): Promise<DocumentLogo | null> {
  const logo = await currentLogo(db, environmentId);
  return logo ? { bytes: logo.bytes, width: logo.width, height: logo.height } : null;
}

export interface DocumentLogo {
  bytes: Uint8Array;
  width: number;
  height: number;
}
