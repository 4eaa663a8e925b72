import { brandAsset } from '../../page-kit/brand.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import { acceptForms, sentOf, type Sent } from '../../page-kit/forms.js';
import { securityHeaders, sendAsset } from '../../page-kit/headers.js';
import { STRIPE_CSP, stripeAsset } from '../../page-kit/stripe-element.js';
import { statusOf } from '../../http/errors.js';
import { DomainError } from '../../lib/domain-error.js';
import type { App } from '../../http/route-types.js';
import { apiBaseUrl, rootUrl } from '../../http/urls.js';
import { PORTAL_CSS, PORTAL_CSS_VERSION } from './assets.js';
import { PortalAccessError, PortalForgedForm, PortalNotFound } from './errors.js';
import { accessPage, messagePage } from './layout.js';
import { problemOf } from './page-state.js';
import { translator } from '../../page-kit/i18n.js';
import { negotiateLanguage } from '../../page-kit/locale.js';
import type { PortalAnswer, PortalPages, PortalPlace } from './pages.js';
import { cookieToken, setTokenCookie } from './token-cookie.js';

const Slug = Type.Object({ slug: Type.String({ maxLength: 100 }) });
const InvoiceFile = Type.Object({ slug: Type.String({ maxLength: 100 }), file: Type.String({ maxLength: 120 }) });

const prefixOf = (request: FastifyRequest) => (request.environment === 'sandbox' ? '/sandbox' : '');

function placeOf(request: FastifyRequest, slug: string, config: Pick<Config, 'publicUrl'>): PortalPlace {
  return {
    slug,
    environment: request.environment,
    prefix: prefixOf(request),
    baseUrl: rootUrl(request, config.publicUrl),
    apiBase: apiBaseUrl(request, config.publicUrl),
    acceptLanguage: request.headers['accept-language'],
  };
}

function send(request: FastifyRequest, reply: FastifyReply, answer: PortalAnswer): FastifyReply {
  if (answer.kind === 'enter') {
    setTokenCookie(reply, { path: answer.path, token: answer.token, maxAgeS: answer.maxAgeS, secure: answer.secure || request.protocol === 'https' });
    return securityHeaders(reply).code(303).header('location', answer.location).send();
  }
  if (answer.kind === 'redirect') return securityHeaders(reply).code(303).header('location', answer.location).send();
  if (answer.kind === 'pdf') {
    const name = answer.fileName.replace(/[^A-Za-z0-9._-]/g, '_');
    return securityHeaders(reply).type('application/pdf').header('content-disposition', `attachment; filename="${name}"`).send(answer.bytes);
  }
  return securityHeaders(reply, [], answer.stripe ? STRIPE_CSP : undefined).code(typeof answer.status === 'number' ? answer.status : statusOf(answer.status)).type('text/html; charset=utf-8').send(answer.body);
}

/** What was sent, with the session's token from the portal's cookie unless the request carries one itself. */
function withCookieToken(request: FastifyRequest, sent: Sent): Sent {
  if (sent.token !== undefined) return sent;
  const token = cookieToken(request);
  return token === undefined ? sent : { ...sent, token };
}

/** The portal's sign-in by email code (sign-in/routes.ts), for a visit without a working token. */
function signInUrl(request: FastifyRequest): string | null {
  const slug = (request.params as { slug?: string }).slug;
  return slug ? `${prefixOf(request)}/portal/${encodeURIComponent(slug)}/sign-in` : null;
}

/** Every way a portal request can fail answers a page, never JSON, and never anything of a customer. */
async function guarded(request: FastifyRequest, reply: FastifyReply, work: () => Promise<PortalAnswer>): Promise<FastifyReply> {
  const prefix = prefixOf(request);
  const page = (status: number, body: string) => securityHeaders(reply).code(status).type('text/html; charset=utf-8').send(body);
  // No customer is known here: the browser's language, else English.
  const tr = translator(negotiateLanguage({ acceptLanguage: request.headers['accept-language'] }));
  const { t } = tr;
  try {
    return send(request, reply, await work());
  } catch (error) {
    if (error instanceof PortalAccessError) return page(401, accessPage(prefix, error.reason, signInUrl(request), tr));
    if (error instanceof PortalNotFound) return page(404, messagePage(prefix, t('message.notFoundTitle'), t('message.notFoundText'), null, tr));
    if (error instanceof PortalForgedForm) return page(403, messagePage(prefix, t('message.forgedTitle'), t('message.forgedText'), null, tr));
    if (error instanceof DomainError) return page(statusOf(error), messagePage(prefix, t('message.refusedTitle'), tr.problem(problemOf(error)), null, tr));
    request.log.error({ err: error }, 'the customer portal failed');
    return page(500, messagePage(prefix, t('error.title'), t('error.text', { reference: request.id }), null, tr));
  }
}

export function portalPageRoutes(app: App, pages: PortalPages, config: Pick<Config, 'publicUrl'>): void {
  void app.register(async (scope: App) => {
    acceptForms(scope);

    scope.get('/portal/assets/:file', { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 100 }) }) } }, async (request, reply) => {
      const { file } = request.params;
      const asset = file === `portal.${PORTAL_CSS_VERSION}.css` ? { type: 'text/css; charset=utf-8', body: PORTAL_CSS } : (brandAsset(file) ?? stripeAsset(file));
      if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      return sendAsset(reply, asset);
    });

    scope.get('/portal/:slug', { schema: { hide: true, params: Slug } }, async (request, reply) => {
      const place = placeOf(request, request.params.slug, config);
      const query = sentOf(request.query);
      if (query.token !== undefined) return guarded(request, reply, () => pages.enter(place, query));
      return guarded(request, reply, () => pages.view(place, withCookieToken(request, query)));
    });

    scope.post('/portal/:slug', { schema: { hide: true, params: Slug } }, async (request, reply) =>
      guarded(request, reply, () => pages.submit(placeOf(request, request.params.slug, config), withCookieToken(request, sentOf(request.body)))),
    );

    scope.get('/portal/:slug/invoices/:file', { schema: { hide: true, params: InvoiceFile } }, async (request, reply) =>
      guarded(request, reply, () =>
        pages.pdf(placeOf(request, request.params.slug, config), request.params.file, withCookieToken(request, sentOf(request.query))),
      ),
    );

    scope.get('/portal/:slug/credit-notes/:file', { schema: { hide: true, params: InvoiceFile } }, async (request, reply) =>
      guarded(request, reply, () =>
        pages.creditNotePdf(placeOf(request, request.params.slug, config), request.params.file, withCookieToken(request, sentOf(request.query))),
      ),
    );
  });
}
