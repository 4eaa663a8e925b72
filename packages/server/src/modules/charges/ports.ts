/** The one-time purchase (use-cases/charge.ts) as this module's route asks for it; app.ts hands it in. */
import type { ChargeCreate, ChargeRecord } from '@billow/contract';
import type { IdempotencyClaim } from '../intents/claims.js';
import type { PurchaseScope } from '../purchases/purchase.js';

export interface ChargeCreator {
  create(scope: PurchaseScope, input: ChargeCreate, idempotency?: IdempotencyClaim | null): Promise<ChargeRecord>;
}
