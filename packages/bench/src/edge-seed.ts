/**
 * The catalog and subscriptions the Edge scenarios need, made through Billow's
 * own HTTP API, as a seller would: 20 features (10 BOOLEAN, 5 CUSTOMIZABLE,
 * 5 METER), three free plans that each grant all twenty, customers of the
 * entitlement check subscribed to all three plans, and customers of the usage
 * scenarios subscribed to the first.
 */
const FEATURES = { BOOLEAN: 10, CUSTOMIZABLE: 5, METER: 5 } as const;
const PLANS = 3;
/** Seeding requests in flight at once: fast enough, and gentle on a two-core machine. */
const SEED_CONCURRENCY = 8;

export interface EdgeCatalog {
  /** The product the plans belong to (and the promotions scenario's promotion is for). */
  productId: string;
  /** The identifier of the meter the usage scenarios report on. */
  meter: string;
  /** The identifiers of all twenty features. */
  features: string[];
  plans: string[];
}

/** What the seeding reads of an answer: the ids of what it created. */
interface Created {
  id: string;
  identifier: string;
}

type Api = (method: string, path: string, body?: unknown) => Promise<Created>;

/** Calls Billow's production API with a server key; any answer that is not 2xx fails the run. */
export function billowApi(baseUrl: string, serverKey: string): Api {
  return async (method, path, body) => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${serverKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Created;
  };
}

/** Runs `work` over `items` with at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

function detailsFor(type: keyof typeof FEATURES, planIndex: number, featureIndex: number): Record<string, unknown> {
  switch (type) {
    case 'BOOLEAN':
      return { value: true };
    case 'CUSTOMIZABLE':
      return { value: 10 * (planIndex + 1) + featureIndex };
    case 'METER':
      // Soft limits: the usage scenarios report far past them, which must never refuse a report.
      return { value: 1000 * (planIndex + 1), reset: 'EVERY_MONTH', resetTime: 'BEGINNING_OF_PERIOD' };
  }
}

export async function seedEdgeCatalog(api: Api): Promise<EdgeCatalog> {
  const product = await api('POST', '/catalog/products/', { name: 'Bench product', taxCode: 'saas' });
  const features: Array<{ id: string; identifier: string; type: keyof typeof FEATURES }> = [];
  for (const type of Object.keys(FEATURES) as Array<keyof typeof FEATURES>) {
    for (let i = 1; i <= FEATURES[type]; i++) {
      const identifier = `${type.toLowerCase()}-${i}`;
      const featureDetails =
        type === 'METER' ? { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } } : undefined;
      const created = await api('POST', '/catalog/features/', {
        name: `Bench ${identifier}`,
        identifier,
        featureType: type,
        ...(featureDetails ? { featureDetails } : {}),
      });
      features.push({ id: created.id, identifier, type });
    }
  }
  const plans: string[] = [];
  for (let p = 0; p < PLANS; p++) {
    const plan = await api('POST', '/catalog/plans/', { name: `Bench plan ${p + 1}`, product: product.id });
    await api('POST', `/catalog/plans/${plan.identifier}/features/`, {
      planEntitlements: features.map((feature, i) => ({ feature: feature.id, details: detailsFor(feature.type, p, i) })),
    });
    await api('POST', `/catalog/plans/${plan.identifier}/prices/bulk/`, {
      prices: [
        { priceType: 'FREE', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0 } }] }] },
      ],
    });
    await api('POST', `/catalog/plans/${plan.identifier}/publish/`, {});
    plans.push(plan.identifier);
  }
  const meter = features.find((feature) => feature.type === 'METER');
  if (!meter) throw new Error('the bench catalog has no meter');
  return { productId: product.id, meter: meter.identifier, features: features.map((feature) => feature.identifier), plans };
}

/** Subscribes each customer to each plan (monthly, free), `SEED_CONCURRENCY` at a time. */
export async function subscribeAll(api: Api, customerIds: readonly string[], plans: readonly string[]): Promise<void> {
  await eachLimited(customerIds, SEED_CONCURRENCY, async (customerId) => {
    for (const planIdentifier of plans) {
      await api('POST', '/subscriptions/create/', { customerId, planIdentifier, chargePeriod: 'MONTHLY' });
    }
  });
}
