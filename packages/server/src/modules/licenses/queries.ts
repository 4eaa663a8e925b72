import type { Executor } from '../../db/transaction.js';
import { activeInstancesOf, licensesOfCustomer, type InstanceRow } from './repo.js';

/** One of a customer's keys with its active instances (the portal shows them, and frees one). */
export interface CustomerLicense {
  id: string;
  licenseKey: string;
  planName: string;
  enabled: boolean;
  expiresOn: Date | null;
  activationLimit: number | null;
  instances: Pick<InstanceRow, 'id' | 'name' | 'created_at' | 'last_validated_at'>[];
}

/** A customer's keys (customers.id), newest first, each with its active instances. */
export async function customerLicenses(db: Executor, environmentId: string, customerPk: string): Promise<CustomerLicense[]> {
  const keys = await licensesOfCustomer(db, environmentId, customerPk);
  const instances = await activeInstancesOf(db, environmentId, keys.map((k) => k.id));
  return keys.map((key) => ({
    id: key.id,
    licenseKey: key.license_key,
    planName: key.plan_name,
    enabled: key.enabled,
    expiresOn: key.expires_on,
    activationLimit: key.activation_limit_enabled ? (key.activation_limit ?? 1) : null,
    instances: instances.filter((i) => i.license_id === key.id),
  }));
}
