import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'kq_whsec_';

/**
 * A new signing secret: `kq_whsec_` and 32 random bytes in base64, so that the part
 * after `kq_` is also a valid Standard Webhooks secret (`whsec_<base64>`).
 */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

const VERSION = 'v1';

/**
 * Seals endpoint secrets at rest with AES-256-GCM under a key derived from the
 * instance's master secret; the endpoint id is the associated data, so a sealed
 * secret copied to another row does not open.
 */
export class SecretBox {
  private readonly key: Buffer;

  /** `purpose` separates the keys of different secrets (endpoint secrets, payment provider keys). */
  constructor(masterSecret: string, purpose = 'billow/webhook-endpoint-secrets/v1') {
    this.key = Buffer.from(hkdfSync('sha256', masterSecret, 'billow', purpose, 32));
  }

  seal(secret: string, endpointId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(endpointId));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, iv, sealed, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  open(sealed: string, endpointId: string): string {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== VERSION || !iv || body === undefined || !tag) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(endpointId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('the sealed secret does not open with this instance key (was BILLOW_SECRET changed?)');
    }
  }
}
