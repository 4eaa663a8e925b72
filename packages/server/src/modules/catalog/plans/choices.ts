import type { Executor } from '../../../db/transaction.js';
import { enabledPrice, toStored } from '../prices/repo.js';
import { findPlan, findVersion } from './repo.js';

/** A plan a hosted page offers, with the periods its published price has in a currency. */
export interface PlanChoice {
  identifier: string;
  name: string;
  periods: string[];
}

const PERIOD_ORDER = ['DAILY', 'WEEKLY', 'TWENTY_EIGHT_DAYS', 'MONTHLY', 'THREE_MONTHS', 'SIX_MONTHS', 'YEARLY', 'ONE_TIME'];

/**
 * The published plans among `identifiers` that have a price in `currency`, each with its
 * periods in a fixed order (checkout's plan picker, the portal's change of plan). A price
 * with no flat charge (only meters) offers `fallbackPeriod`.
 */
export async function planChoices(
  db: Executor,
  environmentId: string,
  identifiers: string[],
  currency: string,
  fallbackPeriod: string | null = null,
): Promise<PlanChoice[]> {
  const choices: PlanChoice[] = [];
  for (const identifier of identifiers) {
    const plan = await findPlan(db, environmentId, identifier);
    if (!plan || plan.archived_at || plan.published_version === null) continue;
    const version = await findVersion(db, plan.id, plan.published_version);
    const price = version ? await enabledPrice(db, version.id, currency) : undefined;
    if (!version || !price) continue;
    const periods = new Set(toStored(price).chargeCatalogPrice.flatMap((e) => (e.feature === null ? e.charges.map((c) => c.chargePeriod) : [])));
    if (periods.size === 0 && fallbackPeriod) periods.add(fallbackPeriod);
    choices.push({ identifier, name: version.name, periods: PERIOD_ORDER.filter((p) => periods.has(p)) });
  }
  return choices;
}
