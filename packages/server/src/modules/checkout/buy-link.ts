/**
 * Buy links (decision 0054, 0059): GET /buy/{productId}/ or /buy/{organizationSlug}/{productIdentifier}/,
 * with ?plan_identifier=&charge_period=…, make a session as a client key would make it.
 */
import type { Db } from '../../db/connect.js';
import { publishedPlansOfProduct } from '../catalog/queries.js';
import { buyLinkForeignRedirect, buyLinkPlanMissing, buyLinkProductUnknown } from './errors.js';
import { onSellerSite } from './redirect-target.compute.js';
import * as repo from './repo.js';
import type { CheckoutService } from './service.js';

/** The product a link names: by its id, or by its identifier under the organization's slug. */
export type BuyLinkProduct = { id: string } | { organizationSlug: string; identifier: string };

export interface BuyLinkVisit {
  environment: 'sandbox' | 'production';
  baseUrl: string;
  apiBase: string;
  ip: string;
  query: Record<string, string | undefined>;
}

const flag = (value: string | undefined): boolean | undefined =>
  value === undefined ? undefined : ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());

/** A buy link's redirect target: none, or one on the product's site (decision 0054); anything else is refused. */
function sellerTarget(value: string | undefined, field: string, productUrl: string | null): string | null {
  if (value === undefined || value.trim() === '') return null;
  if (!onSellerSite(value, productUrl)) throw buyLinkForeignRedirect(field, productUrl);
  return value;
}

async function productOf(db: Db, which: BuyLinkProduct, environment: BuyLinkVisit['environment']) {
  if ('id' in which) return /^[0-9a-f-]{36}$/i.test(which.id) ? repo.findProductWithEnvironment(db, which.id) : undefined;
  return repo.findProductByIdentifier(db, which.organizationSlug, environment, which.identifier);
}

/** The new session's page address; a product unknown here, without a published plan, or a foreign redirect → DomainError. */
export async function buyLinkSession(deps: { db: Db; service: CheckoutService }, which: BuyLinkProduct, visit: BuyLinkVisit): Promise<string> {
  const q = visit.query;
  const product = await productOf(deps.db, which, visit.environment);
  if (!product || product.archived_at || product.environment !== visit.environment) throw buyLinkProductUnknown();
  const plan = q.plan_identifier ?? (await publishedPlansOfProduct(deps.db, product.id))[0];
  if (!plan) throw buyLinkPlanMissing();
  const successUrl = sellerTarget(q.success_url, 'success_url', product.product_url);
  const cancelUrl = sellerTarget(q.cancel_url, 'cancel_url', product.product_url);
  const scope = {
    organizationId: product.organization_id,
    environmentId: product.environment_id,
    environment: product.environment,
    kind: 'client' as const,
    baseUrl: visit.baseUrl,
    apiBase: visit.apiBase,
  };
  const created = await deps.service.create(
    scope,
    {
      planIdentifier: plan,
      chargePeriod: q.charge_period ?? '',
      successUrl: successUrl ?? '',
      cancelUrl,
      customerId: q.customer_id ?? null,
      plansEnabled: q.enabled ?? q.plans_enabled ?? null,
      discountsEnabled: flag(q.discounts_enabled) ?? null,
      discountCode: q.discount_code ?? null,
      lockEmail: flag(q.lock_email) ?? null,
      defaultBillingCountry: q.default_billing_country ?? null,
      ipAddress: visit.ip,
    },
    'buy_link',
  );
  return created.checkoutUrl;
}

/** The seller of the product a link names, when it names one on sale in this environment (for the language of its error page). */
export async function buyLinkOwner(db: Db, which: BuyLinkProduct, environment: BuyLinkVisit['environment']): Promise<{ organizationId: string; environmentId: string } | null> {
  const product = await productOf(db, which, environment).catch(() => undefined);
  if (!product || product.environment !== environment) return null;
  return { organizationId: product.organization_id, environmentId: product.environment_id };
}
