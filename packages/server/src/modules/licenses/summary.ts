import type { Executor } from '../../db/transaction.js';
import { usageOf, type LicenseRow } from './repo.js';

export interface LicenseSummary {
  id: string;
  licenseKey: string;
  activatedOn: string | null;
  expiresOn: string | null;
  activationUsage: number;
  activationLimit: number | null;
  enabled: boolean;
}

/** Keys as orders and subscriptions show them, with their activations counted. */
export async function summarizeLicenses(db: Executor, environmentId: string, rows: LicenseRow[]): Promise<LicenseSummary[]> {
  const usage = await usageOf(
    db,
    environmentId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => {
    const used = usage.get(row.id);
    return {
      id: row.id,
      licenseKey: row.license_key,
      activatedOn: used?.firstActivatedAt ? used.firstActivatedAt.toISOString() : null,
      expiresOn: row.expires_on ? row.expires_on.toISOString() : null,
      activationUsage: used?.active ?? 0,
      activationLimit: row.activation_limit_enabled ? row.activation_limit : null,
      enabled: row.enabled,
    };
  });
}
