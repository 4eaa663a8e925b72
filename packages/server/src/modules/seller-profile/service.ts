import type { SellerProfile, SellerProfileUpdate } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Tx } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type AuditableScope } from '../audit/queries.js';
import { recordEvent } from '../events/writer.js';
import { checkedCountry, checkedInvoicePrefix, checkedTaxRegistrations, checkedTimeZone } from './checks.js';
import { logoNotFound, logoUploadsUnavailable } from './errors.js';
import { checkedLogo, LOGO_MAX_BYTES, type CheckedLogo } from './logo.js';
import type { SellerLogoMedia } from './media-port.js';
import * as repo from './repo.js';
import { profileView } from './view.js';

/** Whose profile; a request's scope also says who changes it, for the audit log (decision 0077). */
export interface ProfileScope extends AuditableScope {
  organizationId: string;
  environmentId: string;
}

/** The columns an update may set, from the wire names; each undefined field is left as it is. */
function columnsOf(input: Omit<SellerProfileUpdate, 'logoImageKey'>) {
  const address = input.address && {
    line1: input.address.line1.trim(),
    line2: input.address.line2?.trim() ?? null,
    city: input.address.city.trim(),
    postalCode: input.address.postalCode?.trim() ?? null,
    region: input.address.region?.trim() ?? null,
    country: checkedCountry('address.country', input.address.country),
  };
  return {
    display_name: input.displayName?.trim() ?? input.displayName,
    legal_name: input.legalName?.trim() ?? input.legalName,
    address: address === undefined ? undefined : address === null ? null : JSON.stringify(address),
    tax_registrations: input.taxRegistrations && JSON.stringify(checkedTaxRegistrations(input.taxRegistrations)),
    support_email: input.supportEmail,
    support_url: input.supportUrl,
    website_url: input.websiteUrl,
    terms_url: input.termsUrl,
    privacy_url: input.privacyUrl,
    refund_policy_url: input.refundPolicyUrl,
    brand_color: input.brandColor?.toUpperCase() ?? input.brandColor,
    invoice_prefix: checkedInvoicePrefix(input.invoicePrefix),
    default_language: input.defaultLanguage,
    time_zone: input.timeZone === undefined ? undefined : checkedTimeZone(input.timeZone),
  };
}

/** The fields of `before` that `after` changed, as they were (an event's previous_attributes). */
function changedFields(before: SellerProfile, after: SellerProfile): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(before)) {
    if (name === 'version' || name === 'updatedOn') continue;
    if (JSON.stringify(value) !== JSON.stringify(after[name as keyof SellerProfile])) previous[name] = value;
  }
  return previous;
}

/**
 * The seller's identity in one environment (issue 27): read by pages, documents and
 * emails; changed only through update, which checks every value, counts versions and
 * announces the change (`seller_profile.updated`) in the same transaction.
 */
export class SellerProfileService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** Absent where no uploads are taken (the operator's commands): a logo is then refused. */
    private readonly media?: SellerLogoMedia,
  ) {}

  async get(scope: ProfileScope, baseUrl = ''): Promise<SellerProfile> {
    const [row, name] = await Promise.all([repo.findProfile(this.db, scope.environmentId), repo.organizationName(this.db, scope.organizationId)]);
    return profileView(row, name, baseUrl);
  }

  /** Checks every value (and reads a new logo) before the transaction; writes, counts the version and announces it inside. */
  async update(scope: ProfileScope, input: SellerProfileUpdate, baseUrl = ''): Promise<SellerProfile> {
    const { logoImageKey, ...fields } = input;
    const columns = columnsOf(fields);
    const logo = typeof logoImageKey === 'string' ? await this.uploadedLogo(scope, logoImageKey) : logoImageKey;
    const profile = await inTransaction(this.db, async (tx) => {
      if (logo !== undefined) await this.replaceLogo(tx, scope, logoImageKey!, logo);
      return this.write(tx, scope, { ...columns, logo_digest: logo === undefined ? undefined : (logo?.digest ?? null) }, baseUrl);
    });
    // The upload's file is no longer needed: the logo lives in the database now.
    if (typeof logoImageKey === 'string') await this.media?.discard(logoImageKey);
    return profile;
  }

  private async uploadedLogo(scope: ProfileScope, fileKey: string): Promise<CheckedLogo> {
    if (!this.media) throw logoUploadsUnavailable();
    return checkedLogo(await this.media.read(scope, fileKey, LOGO_MAX_BYTES));
  }

  private async replaceLogo(tx: Tx, scope: ProfileScope, fileKey: string | null, logo: CheckedLogo | null): Promise<void> {
    if (logo === null) return repo.deleteLogo(tx, scope.environmentId);
    await this.media!.consumeRead(tx, scope, fileKey!);
    const { digest, contentType, width, height, bytes } = logo;
    await repo.saveLogo(tx, { environment_id: scope.environmentId, digest, content_type: contentType, width, height, bytes, created_at: this.clock.now() });
  }

  /** The logo's bytes at its address; 404 once another logo replaced it. */
  async logo(environmentId: string, digest: string): Promise<{ contentType: string; bytes: Uint8Array }> {
    const row = await repo.findLogo(this.db, environmentId, digest);
    if (!row) throw logoNotFound();
    return { contentType: row.content_type, bytes: row.bytes };
  }

  private async write(
    tx: Tx,
    scope: ProfileScope,
    columns: ReturnType<typeof columnsOf> & { logo_digest: string | null | undefined },
    baseUrl: string,
  ): Promise<SellerProfile> {
    const name = await repo.organizationName(tx, scope.organizationId);
    const current = await repo.findProfile(tx, scope.environmentId, { forUpdate: true });
    const before = profileView(current, name, baseUrl);
    const defined = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
    const now = this.clock.now();
    const saved = await repo.saveProfile(tx, {
      ...(current ? { ...current, address: current.address && JSON.stringify(current.address), tax_registrations: JSON.stringify(current.tax_registrations) } : {}),
      ...defined,
      environment_id: scope.environmentId,
      organization_id: scope.organizationId,
      version: (current?.version ?? 0) + 1,
      created_at: current?.created_at ?? now,
      modified_at: now,
    });
    const after = profileView(saved, name, baseUrl);
    const previousAttributes = changedFields(before, after);
    await recordEvent(tx, { environmentId: scope.environmentId, organizationId: scope.organizationId, type: 'seller_profile.updated', data: after, previousAttributes, at: now });
    const changed = Object.keys(previousAttributes);
    const pick = (profile: SellerProfile) => Object.fromEntries(changed.map((name) => [name, profile[name as keyof SellerProfile]]));
    await recordAudit(tx, scope, { action: 'seller_profile.updated', resourceType: 'seller_profile', resourceId: scope.environmentId, before: pick(before), after: pick(after) }, now);
    return after;
  }
}

/** The ids of an organization's environments (to give each its profile). */
export async function environmentsOf(db: Db, organizationId: string): Promise<string[]> {
  return (await repo.environmentsOfOrganization(db, organizationId)).map((e) => e.id);
}
