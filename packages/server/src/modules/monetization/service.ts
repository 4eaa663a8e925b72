import { isIP } from 'node:net';
import { countryOfIp } from '../../lib/geoip.js';
import { currencyOfCountry } from '../../lib/local-currency.js';
import type { EntitlementDetails, OfferingSubscription, ProductOffering, ProductOfferingQuery } from '@billow/contract';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../db/connect.js';
import { normalizeCountry } from '../../lib/countries.js';
import { isCurrency } from '../../lib/money.js';
import { findFeaturesById, findProduct, listEntitlements, listPrices, toStored } from '../catalog/queries.js';
import { productNotFound } from '../catalog/errors.js';
import { FALLBACK_CURRENCY } from '../catalog/prices/service.js';
import { findCustomer } from '../customers/queries.js';
import { isCrawler, productPromotions, promotionForBuyer } from '../promotions/queries.js';
import { buildOffering, offeringSubscription, type OfferingFeatureInput, type OfferingPlanInput } from './offering.compute.js';
import * as repo from './repo.js';
import { countryAndAddress, countryNeedsServerKey, invalidCountry, invalidCurrencyCode, invalidIpAddress } from './errors.js';

export interface OfferingScope {
  organizationId: string;
  environmentId: string;
  /** Which kind of key asked: some query parameters are honoured only for a server key. */
  keyKind: 'server' | 'client';
  /** The address the request came from. */
  callerIp: string;
  /** The caller's User-Agent: a client key's crawler gets no promotion. */
  userAgent?: string | undefined;
}

/** `currency_code`, upper-cased, or null; a code that is not ISO 4217 is refused. */
function requestedCurrency(raw: string | undefined): string | null {
  const code = raw?.trim().toUpperCase();
  if (!code) return null;
  if (!isCurrency(code)) throw invalidCurrencyCode(raw);
  return code;
}

/** `plans_enabled` as a list of identifiers, or null when it does not narrow the plans. */
function enabledPlans(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const identifiers = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
  return identifiers.length > 0 ? identifiers : null;
}

/**
 * The address whose country the offering is for. `ip_address` is honoured only
 * for a server key (a browser could otherwise claim any location) and must then
 * be an IP address; a client key is located by where its request came from.
 */
function addressToLocate(scope: OfferingScope, raw: string | undefined): string | null {
  if (scope.keyKind !== 'server') return scope.callerIp;
  if (raw === undefined) return null;
  if (isIP(raw.trim()) === 0) throw invalidIpAddress(raw);
  return raw.trim();
}

/** A country named outright (a preview of location pricing): a server key's, alone, and one ISO 3166-1 code. */
function countryToPrice(scope: OfferingScope, raw: string | undefined, ipAddress: string | undefined): string | null {
  if (raw === undefined) return null;
  if (scope.keyKind !== 'server') throw countryNeedsServerKey();
  if (ipAddress !== undefined) throw countryAndAddress();
  const country = normalizeCountry(raw);
  if (!country) throw invalidCountry(raw);
  return country;
}

/** The located country's currency when a shown plan sells in it (per-country prices: decision 0036), else null. */
function localCurrencyOf(plans: OfferingPlanInput[], located: string | null): string | null {
  const local = currencyOfCountry(located);
  return local && plans.some((plan) => plan.prices.some((p) => p.price.enabled && p.price.currency === local)) ? local : null;
}

export class OfferingService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** What a pricing page shows for a product: its published plans with their prices, and the customer's state. */
  async productOffering(scope: OfferingScope, productRef: string, query: ProductOfferingQuery): Promise<ProductOffering> {
    const currency = requestedCurrency(query.currency_code);
    const identifiers = enabledPlans(query.plans_enabled);
    const locate = addressToLocate(scope, query.ip_address);

    const product = await findProduct(this.db, scope.environmentId, productRef);
    if (!product || product.archived_at) throw productNotFound(productRef);

    const [settingsCurrency, rows, customer] = await Promise.all([
      repo.productCurrency(this.db, product.id),
      repo.publishedPlans(this.db, scope.environmentId, product.id, identifiers),
      query.customer_id === undefined ? undefined : findCustomer(this.db, scope.environmentId, query.customer_id),
    ]);
    const versionIds = rows.map((r) => r.version_id);
    const [prices, entitlements] = await Promise.all([
      listPrices(this.db, versionIds),
      listEntitlements(this.db, versionIds),
    ]);

    // An archived customer is gone for new purchases: it does not count as existing.
    const liveCustomer = customer && customer.archived_at === null ? customer : null;
    const country = (liveCustomer?.billing_address as { country?: unknown } | null)?.country;
    const billing = typeof country === 'string' ? normalizeCountry(country) : null;
    const located = countryToPrice(scope, query.country, query.ip_address) ?? countryOfIp(locate);
    const promotions = located ? await productPromotions(this.db, scope.environmentId, product.id) : [];
    const buyer = { located, billing, crawler: scope.keyKind === 'client' && isCrawler(scope.userAgent) };

    const plans: OfferingPlanInput[] = rows.map((row) => ({
      identifier: row.identifier,
      version: row.version,
      name: row.name,
      description: row.description,
      metadata: row.metadata,
      isVisible: row.is_visible,
      prices: prices.filter((p) => p.plan_version_id === row.version_id).map((p) => ({ id: p.id, price: toStored(p) })),
      entitlements: entitlements
        .filter((e) => e.plan_version_id === row.version_id)
        .map((e) => ({ featureId: e.feature_id, details: e.details as EntitlementDetails })),
      promotionPercent: promotionForBuyer(promotions, product.id, row.identifier, buyer)?.percentage ?? 0,
    }));

    const featureIds = new Set<string>();
    for (const plan of plans) {
      for (const e of plan.entitlements) featureIds.add(e.featureId);
      for (const p of plan.prices) for (const entry of p.price.chargeCatalogPrice) if (entry.feature) featureIds.add(entry.feature);
    }
    const features = new Map<string, OfferingFeatureInput>();
    for (const f of await findFeaturesById(this.db, [...featureIds])) {
      if (f.environment_id !== scope.environmentId) continue;
      features.set(f.id, {
        id: f.id,
        identifier: f.identifier,
        name: f.name,
        description: f.description,
        featureType: f.feature_type,
        featureDetails: f.feature_details,
        metadata: f.metadata,
        isArchived: f.archived_at !== null,
      });
    }

    const subscription = await this.subscriptionState(scope, liveCustomer?.id ?? null, product.id);
    return buildOffering({
      organizationId: scope.organizationId,
      countryCode: billing ?? located,
      requestedCurrency: currency ?? localCurrencyOf(plans, located),
      productCurrency: settingsCurrency,
      fallbackCurrency: FALLBACK_CURRENCY,
      plans,
      features,
      isCustomerExists: liveCustomer !== null,
      subscription,
    });
  }

  private async subscriptionState(scope: OfferingScope, customerUuid: string | null, productId: string): Promise<OfferingSubscription> {
    if (customerUuid === null) return { hasPreviousSubscription: false };
    const rows = await repo.customerSubscriptionsOfProduct(this.db, scope.environmentId, customerUuid, productId);
    return offeringSubscription(
      rows.map((row) => ({
        id: row.id,
        status: row.status,
        chargePeriod: row.charge_period,
        endDate: row.end_date,
        planIdentifier: row.plan_identifier,
      })),
      this.clock.now(),
    );
  }
}
