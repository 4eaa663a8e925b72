import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { statusOf } from '../../http/errors.js';
import type { App } from '../../http/route-types.js';
import { apiBaseUrl, rootUrl } from '../../http/urls.js';
import { acceptForms, sentOf } from '../../page-kit/forms.js';
import { securityHeaders, sendAsset } from '../../page-kit/headers.js';
import type { Clock } from '../../lib/clock.js';
import { DomainError, isNotFound } from '../../lib/domain-error.js';
import { isPaymentProviderRequired } from '../payments/errors.js';
import { CHECKOUT_CSS, CHECKOUT_JS, CSS_VERSION, JS_VERSION } from './assets.js';
import type { CheckoutPages, PageAnswer } from './ports.js';
import { buyLinkSession, type BuyLinkProduct } from './buy-link.js';
import { inBuyersLanguage } from './page-language.js';
import { checkoutPage, closedPage, errorPage, missingPage, usesStripeJs } from './page.js';
import { STRIPE_CSP, stripeAsset } from '../../page-kit/stripe-element.js';
import { brandAsset } from '../../page-kit/brand.js';
import type { CheckoutService } from './service.js';

export interface PageDeps {
  service: CheckoutService;
  completion: CheckoutPages;
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
}

const Id = Type.Object({ id: Type.String({ maxLength: 200 }) });

const prefixOf = (request: FastifyRequest) => (request.environment === 'sandbox' ? '/sandbox' : '');

function originOf(url: string | null): string[] {
  if (!url) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
}

function answer(request: FastifyRequest, reply: FastifyReply, result: PageAnswer): FastifyReply {
  const prefix = prefixOf(request);
  if (result.kind === 'redirect') return securityHeaders(reply).code(303).header('location', result.location).send();
  reply.type('text/html; charset=utf-8');
  if (result.kind === 'html') return securityHeaders(reply, [], result.stripe ? STRIPE_CSP : undefined).code(result.status).send(result.body);
  if (result.kind === 'missing') return securityHeaders(reply).code(404).send(missingPage(prefix));
  if (result.kind === 'closed') return securityHeaders(reply).code(result.status).send(closedPage(result.session, result.reason, prefix));
  const state = inBuyersLanguage(result.state, request.headers['accept-language']);
  const page = checkoutPage(state, prefix);
  // The time to read, price and render the page (the bench's checkout scenario reads it; it reveals nothing a stopwatch would not).
  reply.header('server-timing', `render;dur=${reply.elapsedTime.toFixed(2)}`);
  const stripe = usesStripeJs(state) ? STRIPE_CSP : undefined;
  return securityHeaders(reply, originOf(state.session.success_url), stripe).code(result.status).send(page);
}

/** A failure nobody planned for still answers a page (logged with the request id), never a JSON body. */
async function orErrorPage(request: FastifyRequest, reply: FastifyReply, work: () => Promise<FastifyReply>): Promise<FastifyReply> {
  try {
    return await work();
  } catch (error) {
    request.log.error({ err: error }, 'the hosted checkout page failed');
    const message = `Please try again in a moment. If it happens again, tell the seller this reference: ${request.id}.`;
    return securityHeaders(reply).code(500).type('text/html; charset=utf-8').send(errorPage(prefixOf(request), 'Something went wrong', message));
  }
}

export function checkoutPageRoutes(app: App, deps: PageDeps): void {
  void app.register(async (pages: App) => {
    acceptForms(pages);

    pages.get('/checkout/assets/:file', { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 100 }) }) } }, async (request, reply) => {
      const { file } = request.params;
      const asset =
        file === `checkout.${CSS_VERSION}.css` ? { type: 'text/css; charset=utf-8', body: CHECKOUT_CSS }
        : file === `checkout.${JS_VERSION}.js` ? { type: 'text/javascript; charset=utf-8', body: CHECKOUT_JS }
        : (brandAsset(file) ?? stripeAsset(file));
      if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      return sendAsset(reply, asset);
    });

    pages.get('/checkout/:id', { schema: { hide: true, params: Id } }, async (request, reply) => {
      const query = sentOf(request.query);
      return orErrorPage(request, reply, async () => answer(request, reply, await deps.completion.view(request.params.id, request.environment, query, request.ip)));
    });

    pages.post('/checkout/:id', { schema: { hide: true, params: Id } }, async (request, reply) => {
      const fields = sentOf(request.body);
      return orErrorPage(request, reply, async () =>
        answer(request, reply, await deps.completion.submit(request.params.id, request.environment, fields, request.ip, request.headers['accept-language'])),
      );
    });

    pages.get('/buy/:id', { schema: { hide: true, params: Id } }, async (request, reply) =>
      buyLinkAnswer(request, reply, deps, { id: request.params.id }),
    );

    // The product by its identifier, scoped by the organization's slug (decision 0059).
    pages.get('/buy/:org/:product', { schema: { hide: true, params: OrgProduct } }, async (request, reply) =>
      buyLinkAnswer(request, reply, deps, { organizationSlug: request.params.org, identifier: request.params.product }),
    );
  });
}

const OrgProduct = Type.Object({ org: Type.String({ maxLength: 200 }), product: Type.String({ maxLength: 200 }) });

/** A buy link's answer: 303 to the new session's page, or a page saying why there is none. */
async function buyLinkAnswer(request: FastifyRequest, reply: FastifyReply, deps: PageDeps, product: BuyLinkProduct): Promise<FastifyReply> {
  try {
    const location = await buyLinkSession(deps, product, {
      environment: request.environment,
      baseUrl: rootUrl(request, deps.config.publicUrl),
      apiBase: apiBaseUrl(request, deps.config.publicUrl),
      ip: request.ip,
      query: sentOf(request.query),
    });
    return securityHeaders(reply).code(303).header('location', location).send();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const title = isNotFound(error) ? 'Product not found' : isPaymentProviderRequired(error) ? 'Payments are not available yet' : 'This buy link is not valid';
    return securityHeaders(reply).code(statusOf(error)).type('text/html; charset=utf-8').send(errorPage(prefixOf(request), title, error.detail));
  }
}

