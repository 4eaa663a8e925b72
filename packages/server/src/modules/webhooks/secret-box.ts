import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { instanceSecret } from '../instance-secrets/secret.js';
import { SecretBox } from './secrets.js';

/** The box that seals endpoint secrets, keyed by BILLOW_SECRET or the installation's generated secret (decision 0031). */
export function webhookSecretBox(db: Db, clock: Clock, configured: string | null): () => Promise<SecretBox> {
  const secret = instanceSecret(db, clock, configured, 'webhook_sealing');
  let box: Promise<SecretBox> | null = null;
  return () => {
    box ??= secret().then((master) => new SecretBox(master), (error: unknown) => {
      box = null;
      throw error;
    });
    return box;
  };
}
