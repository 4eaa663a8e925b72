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
import { buyLinkOwner, buyLinkSession, type BuyLinkProduct } from './buy-link.js';
import { inBuyersLanguage } from './page-language.js';
import { checkoutPage, usesStripeJs } from './page.js';
import { closedPage, errorPage, missingPage } from './page-closed.js';
import { closedFacts, endsOnOwnPage, sessionInvoicePdf } from './confirmation.js';
import { dueClosedPage, duePage, dueUsesStripeJs, prefixOfSession } from './due-page.js';
import { translator, type Translator } from '../../page-kit/i18n.js';
import { negotiateLanguage } from '../../page-kit/locale.js';
import { sellerOnPages } from '../seller-profile/queries.js';
import type { SessionRow } from './repo.js';
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

/** The page's language for this request: the customer's locale, the browser's, the seller's, English. */
function languageOf(request: FastifyRequest, customerLocale: string | null, sellerLanguage: string | null): Translator {
  return translator(negotiateLanguage({ customerLocale, acceptLanguage: request.headers['accept-language'], sellerLanguage }));
}

const html = (reply: FastifyReply) => reply.type('text/html; charset=utf-8');

/** A completed or expired session: what was bought (in the buyer's language), or that the link expired. */
async function closedAnswer(request: FastifyRequest, reply: FastifyReply, deps: PageDeps, session: SessionRow, reason: 'expired' | 'success', status: number): Promise<FastifyReply> {
  const facts = await closedFacts(deps.db, session, deps.clock.now());
  const tr = languageOf(request, facts.customerLocale, facts.seller.language);
  // Where the buyer lands after paying (no successUrl of the seller's) is the page they were meant to see: 200.
  const code = reason === 'success' && endsOnOwnPage(session) ? 200 : status;
  return securityHeaders(html(reply)).code(code).send(closedPage(session, reason, prefixOf(request), facts, tr));
}

/** A due payment's page or its closed page, in the buyer's language. */
async function dueAnswer(request: FastifyRequest, reply: FastifyReply, deps: PageDeps, result: Extract<PageAnswer, { kind: 'due' | 'due-closed' }>): Promise<FastifyReply> {
  if (result.kind === 'due') {
    const state = { ...result.state, t: languageOf(request, result.state.customerLocale, result.state.seller.language) };
    return securityHeaders(html(reply), [], dueUsesStripeJs(state) ? STRIPE_CSP : undefined).code(result.status).send(duePage(state));
  }
  const facts = await closedFacts(deps.db, result.session, deps.clock.now());
  const tr = languageOf(request, facts.customerLocale, facts.seller.language);
  return securityHeaders(html(reply)).code(result.status).send(dueClosedPage(prefixOfSession(result.session), result.reason, tr, facts.seller));
}

async function answer(request: FastifyRequest, reply: FastifyReply, deps: PageDeps, result: PageAnswer): Promise<FastifyReply> {
  const prefix = prefixOf(request);
  if (result.kind === 'redirect') return securityHeaders(reply).code(303).header('location', result.location).send();
  if (result.kind === 'due' || result.kind === 'due-closed') return dueAnswer(request, reply, deps, result);
  if (result.kind === 'missing') return securityHeaders(html(reply)).code(404).send(missingPage(prefix, languageOf(request, null, null)));
  if (result.kind === 'closed') return closedAnswer(request, reply, deps, result.session, result.reason, result.status);
  reply.type('text/html; charset=utf-8');
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
    const tr = languageOf(request, null, null);
    const page = { title: tr.t('error.title'), text: tr.t('error.text', { reference: request.id }) };
    return securityHeaders(reply).code(500).type('text/html; charset=utf-8').send(errorPage(prefixOf(request), tr, page));
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
      return orErrorPage(request, reply, async () => answer(request, reply, deps, await deps.completion.view(request.params.id, request.environment, query, request.ip)));
    });

    pages.post('/checkout/:id', { schema: { hide: true, params: Id } }, async (request, reply) => {
      const fields = sentOf(request.body);
      return orErrorPage(request, reply, async () =>
        answer(request, reply, deps, await deps.completion.submit(request.params.id, request.environment, fields, request.ip, request.headers['accept-language'])),
      );
    });

    // The purchase's invoice, from its confirmation page (confirmation.ts), in the buyer's language.
    pages.get('/checkout/:id/invoice.pdf', { schema: { hide: true, params: Id } }, async (request, reply) =>
      orErrorPage(request, reply, () => invoicePdf(request, reply, deps, request.params.id)),
    );

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
    const seller = await buyLinkSeller(deps, product, request.environment);
    const tr = languageOf(request, null, seller?.language ?? null);
    const detail = error.detail;
    const page = isNotFound(error) ? { title: tr.t('buyLink.notFoundTitle'), text: tr.t('buyLink.notFoundText') }
      : isPaymentProviderRequired(error) ? { title: tr.t('buyLink.noProviderTitle'), text: tr.t('card.noProvider') }
      : { title: tr.t('buyLink.invalidTitle'), text: tr.t('buyLink.invalidText'), detail };
    return securityHeaders(reply).code(statusOf(error)).type('text/html; charset=utf-8').send(errorPage(prefixOf(request), tr, page));
  }
}

/** The seller of a buy link's product, when the link names one, for the language of its error page. */
async function buyLinkSeller(deps: PageDeps, product: BuyLinkProduct, environment: 'sandbox' | 'production') {
  const owner = await buyLinkOwner(deps.db, product, environment);
  return owner ? sellerOnPages(deps.db, owner.organizationId, owner.environmentId) : null;
}

/** `GET /checkout/{id}/invoice.pdf`: the invoice of a completed purchase, while its page links it; else not found. */
async function invoicePdf(request: FastifyRequest, reply: FastifyReply, deps: PageDeps, id: string): Promise<FastifyReply> {
  const session = await deps.completion.sessionAt(id, request.environment);
  const facts = session ? await closedFacts(deps.db, session, deps.clock.now()) : null;
  const tr = languageOf(request, facts?.customerLocale ?? null, facts?.seller.language ?? null);
  const file = session ? await sessionInvoicePdf(deps.db, session, deps.clock.now(), tr.lang) : null;
  if (!file) return securityHeaders(html(reply)).code(404).send(missingPage(prefixOf(request), tr));
  const name = file.fileName.replace(/[^A-Za-z0-9._-]/g, '_');
  return securityHeaders(reply).type('application/pdf').header('content-disposition', `attachment; filename="${name}"`).send(file.bytes);
}

