/**
 * `--migrate-subscribers now`: moves the live subscriptions on older versions of the file's
 * plans to the version on sale, by the API's plan change (POST /subscriptions/{id}/update/
 * with the same plan and charge period: the unused time credited, the new price charged for
 * the rest of the period). Runs for every plan of the file, so a run that failed halfway
 * finishes when run again. `at-renewal` needs no call of its own: apply publishes with
 * updatePricing, and the server moves each subscriber at its next renewal (decision 0113).
 */
import type { CatalogFile } from '@billow/contract';
import { PAGE, type Api } from './api.js';

export const MIGRATION_MODES = ['never', 'at-renewal', 'now'] as const;
export type MigrationMode = (typeof MIGRATION_MODES)[number];

export async function migrateSubscribers(api: Api, file: CatalogFile, progress: (line: string) => void): Promise<number> {
  let moved = 0;
  for (const plan of (file.plans ?? []).filter((p) => p.published !== false)) {
    const current = await api.billow.catalog.plans.retrieve(plan.identifier);
    const versions = current.status === 'published' ? [current] : await api.billow.catalog.plans.versions(plan.identifier, PAGE).toArray();
    const onSale = versions.find((v) => v.status === 'published')?.version;
    if (onSale === undefined) continue;
    const subscriptions = await api.billow.subscriptions.list({ ...PAGE, plan: plan.identifier }).toArray();
    for (const subscription of subscriptions.filter((s) => s.planVersion < onSale)) {
      await api.billow.subscriptions.update(subscription.id, { planIdentifier: plan.identifier, chargePeriod: subscription.chargePeriod });
      moved += 1;
      progress(`moved subscription ${subscription.id} of ${subscription.customerId} from ${plan.identifier} version ${subscription.planVersion} to ${onSale}`);
    }
  }
  return moved;
}
