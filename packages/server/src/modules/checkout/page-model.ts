import type { Executor, Tx } from '../../db/transaction.js';
import { resolvePurchase, type PriceOverride, type ResolvedPurchase } from '../purchases/purchase.js';
import { DomainError } from '../../lib/domain-error.js';
import { addressInCountry, countryOfAddress, normalizeCountry } from '../../lib/countries.js';
import { countryOfIp } from '../../lib/geoip.js';
import { entitlementFeatureRows, findFeaturesById, findProduct, planChoices, productMainImage, type PlanChoice } from '../catalog/queries.js';
import type { Included } from '../../page-kit/lines.js';
import { discountOfSession } from './discount.js';
import { asPurchasePromotion, promotionOfSelection } from './promotion.js';
import type { LocatedPromotion } from '../promotions/queries.js';
import type { SessionRow } from './repo.js';
import { prospectiveCustomer } from './service.js';
import { sessionCustomer } from './session-customer.js';
import { offlineCheckedTaxIds } from '../customers/queries.js';
import type { StoredTaxId } from '../../db/schema.js';

export type { PlanChoice } from '../catalog/queries.js';

/** A priced meter the buyer picks a quantity of (seats, say). */
export interface MeterChoice {
  identifier: string;
  name: string;
  quantity: number;
  min: number;
  max: number | null;
}

/** What the buyer has chosen on the page (or the session's defaults). */
export interface Selection {
  plan: string;
  period: string;
  country: string | null;
  quantities: Record<string, number>;
  /** "I'm buying as a business" is ticked. */
  business: boolean;
  /** The business tax id typed, as typed (checked when paying). */
  taxIdText: string;
}

export interface Priced {
  purchase: ResolvedPurchase | null;
  /** Why the selection has no price (a period the plan does not sell, a quantity out of range …). */
  problem: string | null;
  plans: PlanChoice[];
  meters: MeterChoice[];
  trialDays: number;
  /** The customer's own email when the session names a known customer. */
  customerEmail: string | null;
  /** The promotion (location pricing) the price includes, when it won over any discount code. */
  promotion: LocatedPromotion | null;
  /** The session's code is a promotion's coupon code, which takes nothing off by itself: only a covered location does. */
  codeIsPromotions: boolean;
  /** How many payments the code's discount lasts; null: every payment (or no code). */
  discountPayments: number | null;
  /** The tax id the session's customer has, shown in the business field. */
  customerTaxId: string | null;
  /** The session's customer's own locale, when set: the page's language follows it first. */
  customerLocale: string | null;
  /** What the chosen plan includes (its entitlements), for the order summary. */
  includes: Included[];
}

export const overrideOf = (session: SessionRow): PriceOverride | null =>
  session.custom_amount_minor !== null && session.tax_behavior
    ? { amountMinor: session.custom_amount_minor, taxBehavior: session.tax_behavior }
    : null;

/** The plans the page may offer: the session's, and plansEnabled's. */
export const enabledPlans = (session: SessionRow): string[] => session.plans_enabled ?? [session.plan_identifier];

/** Where the page's billing country comes from when the buyer has not chosen one. */
export interface KnownCountries {
  /** The stored billing country of the customer the session may act for (session-customer.ts). */
  customer: string | null;
  /** The country of the buyer's address on the network. */
  ip: string | null;
}

/**
 * The session's defaults, changed by what the page sent (query or form), each value checked.
 * The billing country is the buyer's choice, else the one chosen on an earlier attempt, the
 * customer's stored one, the seller's default, the network's guess (decision 0059).
 */
export function selectionOf(session: SessionRow, sent: Record<string, string | undefined>, known: KnownCountries): Selection {
  const plans = enabledPlans(session);
  const plan = sent.plan && plans.includes(sent.plan) ? sent.plan : session.plan_identifier;
  const period = sent.period && /^[A-Z_]{3,20}$/.test(sent.period) ? sent.period : session.charge_period;
  const chosen = sent.country && normalizeCountry(sent.country);
  const country = chosen || session.billing_country || known.customer || session.default_billing_country || known.ip;
  const quantities: Record<string, number> = {};
  for (const f of session.features) quantities[f.identifier] = f.quantity;
  for (const [key, value] of Object.entries(sent)) {
    if (!key.startsWith('qty_') || value === undefined) continue;
    const n = Number(value);
    if (Number.isSafeInteger(n) && n >= 0 && n <= 1_000_000_000) quantities[key.slice(4)] = n;
  }
  return { plan, period, country, quantities, business: sent.business === 'yes', taxIdText: (sent.tax_id ?? '').trim().slice(0, 60) };
}

/**
 * The tax ids the page prices with: the business id typed when it passes its check digits
 * (the payment checks it again, online where configured), none when the box is unticked
 * on a form sent, else the customer's own.
 */
function pricedTaxIds(selection: Selection, sent: boolean, stored: StoredTaxId[]): StoredTaxId[] {
  if (!sent) return stored;
  if (!selection.business || !selection.taxIdText) return [];
  try {
    const [id] = offlineCheckedTaxIds([{ value: selection.taxIdText }], selection.country, 'tax_id');
    return [{ ...id!, verification: { status: 'unchecked', checkedOn: null, name: null } }];
  } catch (error) {
    if (error instanceof DomainError) return [];
    throw error;
  }
}

async function meterChoices(tx: Tx, purchase: ResolvedPurchase, selection: Selection): Promise<MeterChoice[]> {
  const priced = purchase.price.chargeCatalogPrice.filter((e) => e.feature !== null && e.paymentType !== 'PAY_AS_YOU_GO');
  const features = await findFeaturesById(tx, priced.map((e) => e.feature!));
  return priced.flatMap((entry) => {
    const feature = features.find((f) => f.id === entry.feature);
    const charge = entry.charges.find((c) => c.chargePeriod === selection.period);
    if (!feature || !charge) return [];
    const min = charge.advanced.minQuantity ?? 0;
    const quantity = purchase.quantities[feature.id] ?? selection.quantities[feature.identifier] ?? min;
    return [{ identifier: feature.identifier, name: feature.name, quantity, min, max: charge.advanced.maxQuantity ?? null }];
  });
}

const amountOf = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The plan version's entitlements as the page lists them: granted features only, in the plan's order. */
export async function includedOf(tx: Executor, versionId: string): Promise<Included[]> {
  const rows = await entitlementFeatureRows(tx, [versionId]);
  return rows.flatMap((row) => {
    const details = row.details as Record<string, unknown>;
    if (row.archived_at || (row.feature_type === 'BOOLEAN' && details.value !== true)) return [];
    const reset = typeof details.reset === 'string' ? details.reset : null;
    return [{ name: row.name, type: row.feature_type, value: amountOf(details.value), unlimited: details.hasUnlimitedUsage === true, reset }];
  });
}

/** Prices the selection as the purchase will be priced (modules/purchases/purchase.ts: catalog, quantities, tax by billing country). */
export async function priceSelection(tx: Tx, session: SessionRow, selection: Selection, now: Date, located: string | null = null, sent = false): Promise<Priced> {
  const found = await sessionCustomer(tx, session);
  const scope = { environmentId: session.environment_id, organizationId: session.organization_id, environment: session.environment };
  // The page's country and business tax id are what the payment will charge by (completion stores them on the customer).
  const withCountry = {
    ...(found && selection.country
      ? { ...found, billing_address: addressInCountry(found.billing_address, selection.country) }
      : prospectiveCustomer(found, selection.country)),
    tax_ids: pricedTaxIds(selection, sent, found?.tax_ids ?? []),
  };
  const plans = await planChoices(tx, session.environment_id, enabledPlans(session), session.currency_code ?? 'USD', session.charge_period);
  const customerTaxId = found?.tax_ids?.[0]?.value ?? null;
  const base = { plans, customerEmail: found?.email ?? null, promotion: null, codeIsPromotions: false, discountPayments: null, customerTaxId, customerLocale: found?.locale ?? null, includes: [] as Included[] };
  try {
    const billing = countryOfAddress(withCountry.billing_address);
    const promotion = await promotionOfSelection(tx, session, selection.plan, { located, billing });
    const discount = await discountOfSession(tx, session, selection.plan, now);
    const codeIsPromotions = discount === null && session.discount_code !== null && session.discounts_enabled;
    const purchase = await resolvePurchase(tx, scope, withCountry, {
      planIdentifier: selection.plan,
      chargePeriod: selection.period,
      features: Object.entries(selection.quantities).map(([identifier, quantity]) => ({ identifier, quantity })),
      currencyCode: session.currency_code,
      ipAddress: session.ip_address,
      priceOverride: overrideOf(session),
      discount,
      promotion: asPurchasePromotion(promotion),
    });
    const applied = purchase.promotion ? promotion : null;
    const trialDays = selection.period !== 'ONE_TIME' && purchase.price.freeTrial ? purchase.price.trialPeriod : 0;
    return { ...base, codeIsPromotions, discountPayments: applied ? null : (discount?.payments ?? null), promotion: applied, purchase, problem: null, meters: await meterChoices(tx, purchase, selection), trialDays, includes: await includedOf(tx, purchase.version.id) };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { ...base, purchase: null, problem: error.detail, meters: [], trialDays: 0 };
  }
}

/** The product of a session, for the page's heading. */
export async function productOf(tx: Tx, session: SessionRow) {
  const product = (await findProduct(tx, session.environment_id, session.product_id))!;
  return { ...product, image: await productMainImage(tx, product.id) };
}

export const ipCountryOf = (ip: string | null | undefined): string | null => countryOfIp(ip);

/** The page's selection: what was sent, else the session's and the customer's defaults. */
export async function pageSelection(db: Executor, session: SessionRow, sent: Record<string, string | undefined>, ipAddress: string | null): Promise<Selection> {
  const customer = countryOfAddress((await sessionCustomer(db, session))?.billing_address);
  return selectionOf(session, sent, { customer, ip: ipCountryOf(session.ip_address ?? ipAddress) });
}
