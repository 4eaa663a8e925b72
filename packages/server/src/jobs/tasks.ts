import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import { purgeExpiredIdempotencyKeys } from '../http/idempotency.js';
import type { PeriodicTask } from './scheduler.js';

export function backgroundTasks(db: Db, clock: Clock): PeriodicTask[] {
  return [
    {
      name: 'purge-idempotency-keys',
      everyMs: 15 * 60 * 1000,
      run: async () => {
        const purged = await purgeExpiredIdempotencyKeys(db, clock);
        return purged > 0 ? `purged ${purged} expired idempotency keys` : undefined;
      },
    },
  ];
}
