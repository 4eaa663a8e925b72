/** The statements on Idempotency-Keys that the HTTP layer and the payment pipeline run. */
export { claimKey, deleteKey, findKey, keepAnswer, purgeKeysBefore, takeOverAbandoned } from './repo.js';
