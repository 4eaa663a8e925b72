/** What other folders may ask of the webhooks module's tables. */
export { pruneDeliveryLog as pruneWebhookLogs, countWaitingDeliveries } from './repo.js';
export { SecretBox } from './secrets.js';
