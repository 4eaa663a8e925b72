import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { findSecret, insertSecretIfAbsent } from './repo.js';

const SECRET_NAME = 'media_signing';

/**
 * The master secret of signed media links: BILLOW_SECRET when configured, else
 * one generated on first use and kept in the database, so that links and upload
 * forms survive restarts and are valid on every process of the installation.
 * Read once; a failed read is retried on the next call.
 */
export function signingSecret(db: Db, clock: Clock, configured: string | null): () => Promise<string> {
  if (configured) {
    const fixed = Promise.resolve(configured);
    return () => fixed;
  }
  let loading: Promise<string> | null = null;
  return () => {
    loading ??= loadOrCreate(db, clock).catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
}

async function loadOrCreate(db: Db, clock: Clock): Promise<string> {
  const existing = await findSecret(db, SECRET_NAME);
  if (existing) return existing;
  await insertSecretIfAbsent(db, SECRET_NAME, randomBytes(32).toString('base64url'), clock.now());
  const stored = await findSecret(db, SECRET_NAME);
  if (!stored) throw new Error('The media signing secret could not be stored');
  return stored;
}
