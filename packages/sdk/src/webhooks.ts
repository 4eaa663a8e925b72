import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEventType } from '@billow/contract';

/** One delivery's body: the event, its object in snake_case as the reference sends it. */
export interface WebhookEvent<Type extends string = WebhookEventType> {
  id: string;
  type: Type;
  created_at: string;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
}

/** The delivery is not Billow's, or not of now: answer it with a 400 and do nothing with it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyOptions {
  /** How far the delivery's timestamp may be from now; 300 seconds by default. */
  toleranceSeconds?: number;
  /** The current time in milliseconds (tests replace it). */
  now?: () => number;
}

type Headers_ = Headers | Record<string, string | string[] | undefined>;

const SECRET_PREFIX = 'kq_whsec_';

function headerOf(headers: Headers_, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** The signatures a secret makes of a delivery: the reference's (hex), and the Standard Webhooks one (base64). */
function signaturesOf(secret: string, content: string): string[] {
  const reference = 'v1,' + createHmac('sha256', secret).update(content, 'utf8').digest('hex');
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const standard = 'v1,' + createHmac('sha256', key).update(content, 'utf8').digest('base64');
  return [reference, standard];
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Checks that a webhook delivery came from Billow and is recent, and answers its event.
 * `body` must be the raw body as received (not parsed and serialized again). `secret` may be
 * a list: the new and the old secret during a rotation. Throws WebhookVerificationError.
 */
export function verifyWebhook(body: string | Uint8Array, headers: Headers_, secret: string | readonly string[], options: VerifyOptions = {}): WebhookEvent {
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('The webhook-id, webhook-timestamp or webhook-signature header is missing');
  const seconds = Number(timestamp);
  const nowSeconds = (options.now?.() ?? Date.now()) / 1000;
  if (!Number.isFinite(seconds) || Math.abs(nowSeconds - seconds) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('The webhook timestamp is too far from now (a replay, or a clock far off)');
  }
  const content = `${id}.${timestamp}.${text}`;
  const expected = (typeof secret === 'string' ? [secret] : secret).flatMap((one) => signaturesOf(one, content));
  const given = signatures.split(' ').filter(Boolean);
  if (!given.some((signature) => expected.some((candidate) => same(signature, candidate)))) {
    throw new WebhookVerificationError('No signature of the delivery matches the secret');
  }
  try {
    return JSON.parse(text) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('The delivery is signed but its body is not JSON');
  }
}
