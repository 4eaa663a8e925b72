import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/connect.js';
import { countWaitingDeliveries } from './repo.js';

/** Deliveries not yet made (pending or in flight) at /metrics, counted when the metrics are read. */
export function registerWebhookQueueDepth(registry: Registry, db: Db): void {
  new Gauge({
    name: 'billow_webhook_deliveries_waiting',
    help: 'Webhook deliveries waiting to be made or being made (retries included)',
    registers: [registry],
    async collect() {
      const waiting = await countWaitingDeliveries(db).catch(() => null);
      if (waiting !== null) this.set(waiting);
    },
  });
}
