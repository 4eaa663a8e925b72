import type { SellerProfile, SellerProfileUpdate } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Tx } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { recordEvent } from '../events/writer.js';
import { checkedCountry, checkedTaxRegistrations, checkedTimeZone } from './checks.js';
import * as repo from './repo.js';
import { profileView } from './view.js';

export interface ProfileScope {
  organizationId: string;
  environmentId: string;
}

/** The columns an update may set, from the wire names; each undefined field is left as it is. */
function columnsOf(input: SellerProfileUpdate) {
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
    invoice_prefix: input.invoicePrefix,
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
  ) {}

  async get(scope: ProfileScope): Promise<SellerProfile> {
    const [row, name] = await Promise.all([repo.findProfile(this.db, scope.environmentId), repo.organizationName(this.db, scope.organizationId)]);
    return profileView(row, name);
  }

  async update(scope: ProfileScope, input: SellerProfileUpdate): Promise<SellerProfile> {
    const columns = columnsOf(input);
    return inTransaction(this.db, (tx) => this.write(tx, scope, columns));
  }

  private async write(tx: Tx, scope: ProfileScope, columns: ReturnType<typeof columnsOf>): Promise<SellerProfile> {
    const name = await repo.organizationName(tx, scope.organizationId);
    const current = await repo.findProfile(tx, scope.environmentId, { forUpdate: true });
    const before = profileView(current, name);
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
    const after = profileView(saved, name);
    const previousAttributes = changedFields(before, after);
    await recordEvent(tx, { environmentId: scope.environmentId, organizationId: scope.organizationId, type: 'seller_profile.updated', data: after, previousAttributes, at: now });
    return after;
  }
}

/** The ids of an organization's environments (to give each its profile). */
export async function environmentsOf(db: Db, organizationId: string): Promise<string[]> {
  return (await repo.environmentsOfOrganization(db, organizationId)).map((e) => e.id);
}
