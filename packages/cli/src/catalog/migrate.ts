/**
 * `--migrate-subscribers now`: moves the live subscriptions on older versions of the file's
 * plans to the version on sale, by the API's plan change (POST /subscriptions/{id}/update/
 * with the same plan and charge period: the unused time credited, the new price charged for
 * the rest of the period). Runs for every plan of the file, so a run that failed halfway
 * finishes when run again. `at-renewal` has no API yet (no scheduled plan change): refused.
 */
import type { CatalogFile } from '@billow/contract';
import { PAGE, type Api } from './api.js';

export const MIGRATION_MODES = ['never', 'at-renewal', 'now'] as const;
export type MigrationMode = (typeof MIGRATION_MODES)[number];

export const AT_RENEWAL_UNSUPPORTED =
  '--migrate-subscribers at-renewal is not supported yet: the API cannot schedule a plan change for the next renewal. ' +
  'Use never (subscribers keep their version) or now (they move at once, the difference prorated).';

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
