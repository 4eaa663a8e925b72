import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { instanceSecret } from '../instance-secrets/secret.js';
import { SecretBox } from '../webhooks/queries.js';

const PURPOSE = 'billow/totp-secrets/v1';

/**
 * TOTP secrets sealed at rest (AES-256-GCM) under a key derived from BILLOW_SECRET, or the
 * installation's generated secret, as webhook and payment provider secrets are (decision
 * 0076); the user's id is the associated data, so a sealed secret copied to another account
 * does not open.
 */
export class TotpVault {
  private box: Promise<SecretBox> | null = null;
  private readonly master: () => Promise<string>;

  constructor(db: Db, clock: Clock, configured: string | null) {
    this.master = instanceSecret(db, clock, configured, 'totp_sealing');
  }

  private opened(): Promise<SecretBox> {
    this.box ??= this.master().then(
      (secret) => new SecretBox(secret, PURPOSE),
      (error: unknown) => {
        this.box = null;
        throw error;
      },
    );
    return this.box;
  }

  async seal(secret: string, userId: string): Promise<string> {
    return (await this.opened()).seal(secret, userId);
  }

  async open(sealed: string, userId: string): Promise<string> {
    return (await this.opened()).open(sealed, userId);
  }
}
