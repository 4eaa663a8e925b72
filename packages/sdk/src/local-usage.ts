import type { CheckEntitlementsResponse, EntitlementDetail } from '@billow/contract';
import type { HttpRequest } from './http.js';

/** A usage report as the SDK sends it (POST /report/usage/, or one of a batch). */
export interface SentUsage {
  customerId: string;
  featureId: string;
  value: number;
  behaviour: 'SET' | 'DELTA';
}

function usageOf(value: unknown): SentUsage | null {
  const report = value as Partial<SentUsage> | null;
  if (!report || typeof report !== 'object') return null;
  const { customerId, featureId, value: amount, behaviour } = report;
  if (typeof customerId !== 'string' || typeof featureId !== 'string' || typeof amount !== 'number') return null;
  return behaviour === 'SET' || behaviour === 'DELTA' ? { customerId, featureId, value: amount, behaviour } : null;
}

/** The usage reports of a request, or none: POST /report/usage/ carries one, /report/usage/batch/ many. */
export function usageReportsOf(request: HttpRequest): SentUsage[] {
  if (request.method !== 'POST') return [];
  const body = request.body as { reports?: unknown } | undefined;
  if (request.path === '/report/usage/') return [usageOf(body)].filter((report) => report !== null);
  if (request.path === '/report/usage/batch/' && Array.isArray(body?.reports)) {
    return body.reports.map(usageOf).filter((report) => report !== null);
  }
  return [];
}

/** A meter's entry with its usage moved as Billow will move it (remaining and access follow, as Billow computes them). */
function used(entry: EntitlementDetail, report: SentUsage, hardLimit: boolean): EntitlementDetail {
  const currentUsage = report.behaviour === 'SET' ? report.value : (entry.currentUsage ?? 0) + report.value;
  const remaining = entry.usageLimit === null ? null : entry.usageLimit - currentUsage;
  return { ...entry, currentUsage, remaining, hasAccess: remaining === null || !hardLimit || remaining > 0 };
}

/**
 * The answer with a usage report applied, as Billow applies it: to the feature's last entry
 * (its most recent granting subscription takes the usage). Unchanged when the customer has no
 * meter of that feature.
 */
export function withUsage(answer: CheckEntitlementsResponse, report: SentUsage): CheckEntitlementsResponse {
  const owner = answer.entitlements.findLastIndex((entry) => entry.featureId === report.featureId && entry.featureType === 'METER');
  if (owner < 0) return answer;
  const entitlements = answer.entitlements.slice();
  entitlements[owner] = used(entitlements[owner]!, report, entitlements[owner]!.hardLimit === true);
  return { ...answer, entitlements };
}
