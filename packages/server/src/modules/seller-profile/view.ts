import type { SellerProfile } from '@billow/contract';
import { logoPath } from './logo.js';
import type { ProfileRow } from './repo.js';

type Address = NonNullable<SellerProfile['address']>;

/** The stored address in the order of the schema (jsonb keeps its own order of keys). */
function addressOf(stored: Record<string, unknown> | null | undefined): Address | null {
  if (!stored) return null;
  const a = stored as Address;
  return { line1: a.line1, line2: a.line2 ?? null, city: a.city, postalCode: a.postalCode ?? null, region: a.region ?? null, country: a.country };
}

/**
 * The profile on the wire; an environment that never set one shows the defaults under its organization's name.
 * `baseUrl` makes the logo's address absolute (pages use the path alone).
 */
export function profileView(row: ProfileRow | undefined, organizationName: string, baseUrl = ''): SellerProfile {
  return {
    object: 'seller_profile',
    displayName: row?.display_name ?? organizationName,
    legalName: row?.legal_name ?? null,
    address: addressOf(row?.address),
    taxRegistrations: (row?.tax_registrations ?? []).map((r) => ({ country: r.country, taxId: r.taxId, scheme: r.scheme })),
    supportEmail: row?.support_email ?? null,
    supportUrl: row?.support_url ?? null,
    websiteUrl: row?.website_url ?? null,
    termsUrl: row?.terms_url ?? null,
    privacyUrl: row?.privacy_url ?? null,
    refundPolicyUrl: row?.refund_policy_url ?? null,
    brandColor: row?.brand_color ?? null,
    logoUrl: row?.logo_digest ? `${baseUrl}${logoPath(row.environment_id, row.logo_digest)}` : null,
    invoicePrefix: row?.invoice_prefix ?? null,
    defaultLanguage: (row?.default_language ?? 'en') as SellerProfile['defaultLanguage'],
    timeZone: row?.time_zone ?? 'UTC',
    version: row?.version ?? 0,
    updatedOn: row ? row.modified_at.toISOString() : null,
  };
}
