import type { FastifyReply } from 'fastify';

/**
 * The strict policy of the hosted pages (decision 0034): only this origin's stylesheet and
 * script (no inline code at all), no framing, forms post to this origin (and to the given
 * targets, e.g. a checkout's success URL, which Chromium checks on the redirect that follows).
 */
export function securityHeaders(reply: FastifyReply, formTargets: string[] = []): FastifyReply {
  const formAction = ["'self'", ...formTargets].join(' ');
  return reply
    .header(
      'content-security-policy',
      `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`,
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
