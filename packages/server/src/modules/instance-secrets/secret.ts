import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { findSecret, insertSecretIfAbsent } from './repo.js';

/**
 * A master secret of the installation (`name` says what for): BILLOW_SECRET when
 * configured, else one generated on first use and kept in the database, so that
 * what it signs or seals survives restarts and holds on every process.
 * Read once; a failed read is retried on the next call.
 */
export function instanceSecret(db: Db, clock: Clock, configured: string | null, name: string): () => Promise<string> {
  if (configured) {
    const fixed = Promise.resolve(configured);
    return () => fixed;
  }
  let loading: Promise<string> | null = null;
  return () => {
    loading ??= loadOrCreate(db, clock, name).catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
}

async function loadOrCreate(db: Db, clock: Clock, name: string): Promise<string> {
  const existing = await findSecret(db, name);
  if (existing) return existing;
  await insertSecretIfAbsent(db, name, randomBytes(32).toString('base64url'), clock.now());
  const stored = await findSecret(db, name);
  if (!stored) throw new Error(`The instance secret ${name} could not be stored`);
  return stored;
}
