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
  return reply
    .header(
      'content-security-policy',
      `default-src 'self'; script-src ${script}; style-src 'self'; img-src 'self' data:; connect-src ${connect}${frames}; object-src 'none'; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`,
    )
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store');
}

/** A hosted page's static asset: cached for good, since its URL carries its content hash. */
export function sendAsset(reply: FastifyReply, asset: { type: string; body: string }): FastifyReply {
  return reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff').send(asset.body);
}
