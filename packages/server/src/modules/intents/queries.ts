/** The statements on payment intents that the payment pipeline and the recovery task run. */
export {
  awaitAction,
  findIntent,
  IDEMPOTENCY_INDEX,
  insertIntent,
  intentOfIdempotencyKey,
  intentOfProviderKey,
  noteProviderCharge,
  ONE_PROCESSING_INDEX,
  settleIntent,
  staleIntents,
  type IntentRow,
} from './repo.js';
