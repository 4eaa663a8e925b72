import { createHmac } from 'node:crypto';
import { SECRET_PREFIX } from './secrets.js';

/** The reference's signature: hex HMAC-SHA256 keyed with the secret string as given. */
export function referenceSignature(secret: string, content: string): string {
  return 'v1,' + createHmac('sha256', secret).update(content, 'utf8').digest('hex');
}

/** The Standard Webhooks signature: base64 HMAC-SHA256 keyed with the base64 part of `whsec_…`. */
export function standardSignature(secret: string, content: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return 'v1,' + createHmac('sha256', key).update(content, 'utf8').digest('base64');
}

export interface SignedHeaders {
  'content-type': string;
  'user-agent': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The headers of one delivery. `secrets` is the current secret, then the previous one
 * during a rotation's grace period. The newest secret's reference signature comes first:
 * the official client's validateEvent compares the first signature only.
 */
export function signedHeaders(options: { eventId: string; timestamp: number; body: string; secrets: string[]; standard: boolean }): SignedHeaders {
  const content = `${options.eventId}.${options.timestamp}.${options.body}`;
  const signatures: string[] = [];
  for (const secret of options.secrets) {
    signatures.push(referenceSignature(secret, content));
    if (options.standard) signatures.push(standardSignature(secret, content));
  }
  return {
    'content-type': 'application/json',
    'user-agent': 'Billow-Webhooks/1',
    'webhook-id': options.eventId,
    'webhook-timestamp': String(options.timestamp),
    'webhook-signature': signatures.join(' '),
  };
}
