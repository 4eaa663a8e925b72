import type { Executor } from '../../db/transaction.js';
import { recordEvent } from '../events/writer.js';
import * as repo from './repo.js';
import { endpointView } from './view.js';

/** Billow stops delivering to an endpoint, says why, and records `webhook_endpoint.disabled` (ours). */
export async function disableEndpoint(tx: Executor, endpoint: repo.EndpointRow, reason: string, at: Date): Promise<repo.EndpointRow> {
  const disabled = await repo.updateEndpoint(tx, endpoint.id, { enabled: false, disabled_reason: reason, modified_at: at });
  await recordEvent(tx, {
    environmentId: endpoint.environment_id,
    organizationId: endpoint.organization_id,
    type: 'webhook_endpoint.disabled',
    data: { ...endpointView(disabled) },
    at,
  });
  return disabled;
}
