/** How a payment intent is claimed and what it keeps to run its purchase again (use-cases/planned-payment.ts). */
import type { EnvironmentKind } from '../../config.js';

export interface IdempotencyClaim {
  scope: string;
  key: string;
  /**
   * The claim names the intent only (the billing engine's renewals and collections): no
   * Idempotency-Key row of a request exists to keep the answer in, the settled intent is
   * the answer's one record, and no UPDATE is sent for a row that is not there.
   */
  intentOnly?: boolean;
}

/** What a purchase needs to run again after a crash: its environment and its request. */
export interface StoredRequest {
  scope: { organizationId: string; environmentId: string; environment: EnvironmentKind; apiBase?: string };
  body: Record<string, unknown>;
}
