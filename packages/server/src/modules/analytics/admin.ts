/** The operator's command over revenue analytics (`billow analytics rebuild`), without the HTTP service. */
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { findEnvironment } from '../tenancy/queries.js';
import { AnalyticsService, type RebuildReport } from './service.js';

/** An analytics command that cannot be carried out, in words for the operator. */
export class AnalyticsAdminError extends Error {}

/**
 * Counts what the log gained first, then prices the environment's whole terms log again
 * and compares it with the kept movements; `apply` replaces them when they differ.
 */
export async function rebuildAnalytics(db: Db, clock: Clock, organizationId: string, environment: 'sandbox' | 'production', apply: boolean): Promise<RebuildReport> {
  const found = await findEnvironment(db, organizationId, environment);
  if (!found) throw new AnalyticsAdminError(`No organization ${organizationId}`);
  const service = new AnalyticsService(db, clock);
  await service.priceLog(Number.MAX_SAFE_INTEGER, found.id);
  return service.rebuild({ environmentId: found.id }, apply);
}
