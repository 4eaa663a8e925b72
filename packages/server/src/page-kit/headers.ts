import type { FastifyReply } from 'fastify';

/** What a page that embeds a payment provider's own element (Stripe.js) may load besides this origin. */
export interface ThirdPartySources {
  script: string;
  connect: string;
  frame: string;
}

/**
 * The strict policy of the hosted pages (decision 0034): only this origin's stylesheet and
 * script (no inline code at all), no framing, forms post to this origin (and to the given
 * targets, e.g. a checkout's success URL, which Chromium checks on the redirect that follows).
 * A page with Stripe's Payment Element also allows exactly Stripe's script, frames and API (`allowed`).
 */
export function securityHeaders(reply: FastifyReply, formTargets: string[] = [], allowed?: ThirdPartySources): FastifyReply {
  const formAction = ["'self'", ...formTargets].join(' ');
  const script = allowed ? `'self' ${allowed.script}` : "'self'";
  const connect = allowed ? `'self' ${allowed.connect}` : "'self'";
  const frames = allowed ? `; frame-src ${allowed.frame}` : '';
  return pageHeaders(reply)
    .header(
      'content-security-policy',
      `default-src 'self'; script-src ${script}; style-src 'self'; img-src 'self' data:; connect-src ${connect}${frames}; object-src 'none'; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`,
    )
    .header('cache-control', 'no-store');
}

/**
 * What every page Billow serves to a browser carries besides its content policy: no
 * framing, no sniffing, no referrer, no window shared with an opener of another origin,
 * none of the browser's powerful features (a payment page asks for none, so an injected
 * script could not either), and HSTS once the page is reached over https.
 */
export function pageHeaders(reply: FastifyReply): FastifyReply {
  if (reply.request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
  return reply
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('permissions-policy', PERMISSIONS_POLICY);
}

const PERMISSIONS_POLICY = [
  'accelerometer', 'autoplay', 'camera', 'display-capture', 'geolocation', 'gyroscope', 'hid', 'magnetometer',
  'microphone', 'midi', 'serial', 'usb', 'xr-spatial-tracking',
].map((feature) => `${feature}=()`).join(', ');

/**
 * The API reference page's policy: its own scripts and styles only, and the one style
 * element Swagger UI's bundle inserts, allowed by its hash (a new bundle with another
 * one fails the browser test of /docs rather than loosen the policy).
 */
export const REFERENCE_PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** A hosted page's static asset: cached for good, since its URL carries its content hash. */
export function sendAsset(reply: FastifyReply, asset: { type: string; body: string }): FastifyReply {
  return reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff').send(asset.body);
}
