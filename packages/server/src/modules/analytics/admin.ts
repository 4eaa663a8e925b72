/** The operator's command over revenue analytics (`billow analytics rebuild`), without the HTTP service. */
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { findEnvironment } from '../tenancy/queries.js';
import { CashService, type CashRebuildReport } from './cash.service.js';
import { AnalyticsService, type RebuildReport } from './service.js';

/** An analytics command that cannot be carried out, in words for the operator. */
export class AnalyticsAdminError extends Error {}

/**
 * Counts what the log gained first, then prices the environment's whole terms log again
 * and compares it with the kept movements, and recomputes the cash figures from the
 * payments and invoices and compares them with the kept day rollups; `apply` replaces
 * either when they differ.
 */
export async function rebuildAnalytics(
  db: Db,
  clock: Clock,
  organizationId: string,
  environment: 'sandbox' | 'production',
  apply: boolean,
): Promise<RebuildReport & { cash: CashRebuildReport }> {
  const found = await findEnvironment(db, organizationId, environment);
  if (!found) throw new AnalyticsAdminError(`No organization ${organizationId}`);
  const service = new AnalyticsService(db, clock);
  await service.priceLog(Number.MAX_SAFE_INTEGER, found.id);
  const mrr = await service.rebuild({ environmentId: found.id }, apply);
  return { ...mrr, cash: await new CashService(db, clock).rebuild({ environmentId: found.id }, apply) };
}
