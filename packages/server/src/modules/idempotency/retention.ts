import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { DAY_MS } from '../../lib/time.js';
import * as keys from './queries.js';

export const IDEMPOTENCY_TTL_MS = DAY_MS;

export async function purgeExpiredIdempotencyKeys(db: Db, clock: Clock): Promise<number> {
  return keys.purgeKeysBefore(db, new Date(clock.now().getTime() - IDEMPOTENCY_TTL_MS));
}
