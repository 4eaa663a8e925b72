import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/connect.js';
import { formToken, formTokenValid } from '../../../page-kit/csrf.js';
import { DomainError } from '../../../lib/domain-error.js';
import { acceptForms, sentOf } from '../../../page-kit/forms.js';
import { securityHeaders } from '../../../page-kit/headers.js';
import type { App } from '../../../http/route-types.js';
import { rootUrl } from '../../../http/urls.js';
import { portalOwner } from '../queries.js';
import { sellerOnPages } from '../../seller-profile/queries.js';
import { translator, type BuyerProblem } from '../../../page-kit/i18n.js';
import { negotiateLanguage } from '../../../page-kit/locale.js';
import { CODE_DIGITS } from './code.js';
import type { PortalSessions } from '../sessions.js';
import { browserOf, ensureBrowser } from './browser.js';
import { choosePage, codePage, emailPage, endPage, type SignInView } from './pages.js';
import type { PortalPlace, SignInGone, SignInService, StartOutcome, VerifyOutcome } from './service.js';

export interface SignInRouteDeps {
  service: SignInService;
  sessions: PortalSessions;
  db: Db;
  config: Pick<Config, 'publicUrl'>;
  secret: () => Promise<string>;
}

/** A request of a sign-in page: its URL names the portal (its params are validated by each route's schema). */
type SlugRequest = FastifyRequest & { params: { slug: string } };

interface Visit {
  place: PortalPlace;
  view: SignInView;
  browser: string;
}

const CSRF_PURPOSE = 'portal-sign-in';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const GONE_STATUS: Record<SignInGone, number> = { missing: 404, expired: 410, used: 410, spent: 429 };

const send = (reply: FastifyReply, status: number, page: string) => securityHeaders(reply).code(status).type('text/html; charset=utf-8').send(page);
const redirect = (reply: FastifyReply, location: string) => securityHeaders(reply).code(303).header('location', location).send();

/** What the sign-in pages answer: each step's page, from the portal of the URL and this browser. */
class SignInPages {
  constructor(private readonly deps: SignInRouteDeps) {}

  /** The portal of the URL and this browser's view of it; null once a 404 (no such portal) or 403 (no cookie, bad token) page is sent. */
  async visit(request: SlugRequest, reply: FastifyReply, posted: boolean): Promise<Visit | null> {
    const prefix = request.environment === 'sandbox' ? '/sandbox' : '';
    const owner = await portalOwner(this.deps.db, request.params.slug, request.environment);
    const browser = posted ? browserOf(request) : ensureBrowser(request, reply, prefix);
    const secret = await this.deps.secret();
    const seller = owner ? await sellerOnPages(this.deps.db, owner.organizationId, owner.environmentId) : null;
    const view: SignInView = {
      prefix,
      base: `${prefix}/portal/${encodeURIComponent(request.params.slug)}/sign-in`,
      organizationName: owner?.organizationName ?? '',
      sandbox: request.environment === 'sandbox',
      csrf: browser ? formToken(secret, CSRF_PURPOSE, browser) : '',
      t: translator(negotiateLanguage({ acceptLanguage: request.headers['accept-language'], sellerLanguage: seller?.language })),
    };
    if (!owner) {
      send(reply, 404, endPage(view, 'missing'));
      return null;
    }
    if (posted && (!browser || !formTokenValid(secret, CSRF_PURPOSE, browser, sentOf(request.body).csrf_token))) {
      send(reply, 403, endPage(view, 'forbidden'));
      return null;
    }
    return { place: { ...owner, environment: request.environment }, view, browser: browser! };
  }

  started(request: FastifyRequest, reply: FastifyReply, v: Visit, email: string | undefined, outcome: StartOutcome): FastifyReply {
    if (outcome.kind === 'started') return redirect(reply, `${v.view.base}/${outcome.id}`);
    if (outcome.kind === 'invalid_email') {
      return send(reply, 422, emailPage(v.view, { email, problem: { field: 'email', message: 'Enter an email address, like name@example.com.', key: 'signIn.invalidEmail' } }));
    }
    if (outcome.kind === 'limited') return send(reply, 429, endPage(v.view, 'limited'));
    request.log.warn('portal sign-in asked for in production, but no SMTP server is configured (BILLOW_SMTP_URL, BILLOW_MAIL_FROM)');
    return send(reply, 503, endPage(v.view, 'unavailable'));
  }

  /** Where a code or a choice leads: into the portal, to the choice of account, or to a dead end. */
  async verified(request: FastifyRequest, reply: FastifyReply, v: Visit, id: string, outcome: VerifyOutcome): Promise<FastifyReply> {
    if (outcome.kind === 'gone') return send(reply, GONE_STATUS[outcome.reason], endPage(v.view, outcome.reason));
    if (outcome.kind === 'no_account') return send(reply, 404, endPage(v.view, 'no_account'));
    if (outcome.kind === 'choose') return send(reply, 200, choosePage(v.view, { id, customers: outcome.customers }));
    if (outcome.kind === 'bad_code') {
      const problem: BuyerProblem = outcome.wrong
        ? { field: 'code', message: 'That code is not right.', key: 'signIn.wrongCode', values: { left: outcome.attemptsLeft } }
        : { field: 'code', message: 'Enter the code from the email.', key: 'signIn.enterCode', values: { digits: CODE_DIGITS } };
      return send(reply, 422, codePage(v.view, { id, email: outcome.email, problem }));
    }
    const opened = await this.deps.sessions
      .open({ ...v.place, customerId: outcome.customerId, baseUrl: rootUrl(request, this.deps.config.publicUrl) })
      .catch((error: unknown) => (error instanceof DomainError ? null : Promise.reject(error)));
    // The customer lost their email between the code and now: there is no portal to open.
    if (!opened) return send(reply, 404, endPage(v.view, 'no_account'));
    return redirect(reply, opened.url);
  }
}

const Slug = Type.Object({ slug: Type.String({ maxLength: 200 }) });
const SlugAndId = Type.Object({ slug: Type.String({ maxLength: 200 }), id: Type.String({ maxLength: 100 }) });
const missing: VerifyOutcome = { kind: 'gone', reason: 'missing' };

/**
 * The portal's sign-in pages (decision 0038), under /portal/{slug}/sign-in (sandbox: /sandbox/portal/…):
 * ask for a code by email, enter it, choose among the accounts sharing the email, and land in the portal.
 */
export function signInRoutes(app: App, deps: SignInRouteDeps): void {
  const pages = new SignInPages(deps);
  const service = deps.service;
  void app.register(async (scope: App) => {
    acceptForms(scope);
    scope.setErrorHandler((error, request, reply) => {
      request.log.error({ err: error }, 'a portal sign-in page failed');
      const prefix = request.environment === 'sandbox' ? '/sandbox' : '';
      const t = translator(negotiateLanguage({ acceptLanguage: request.headers['accept-language'] }));
      const view = { prefix, base: request.originalUrl.replace(/\/sign-in.*$/, '/sign-in'), organizationName: '', sandbox: false, csrf: '', t };
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      return send(reply, status >= 400 && status < 500 ? status : 500, endPage(view, 'failed'));
    });

    scope.get('/portal/:slug/sign-in', { schema: { hide: true, params: Slug } }, async (request, reply) => {
      const v = await pages.visit(request, reply, false);
      return v ? send(reply, 200, emailPage(v.view)) : reply;
    });

    scope.post('/portal/:slug/sign-in', { schema: { hide: true, params: Slug } }, async (request, reply) => {
      const v = await pages.visit(request, reply, true);
      if (!v) return reply;
      const email = sentOf(request.body).email;
      return pages.started(request, reply, v, email, await service.start(v.place, email, v.browser, request.ip, v.view.t.lang));
    });

    scope.get('/portal/:slug/sign-in/:id', { schema: { hide: true, params: SlugAndId } }, async (request, reply) => {
      const v = await pages.visit(request, reply, false);
      if (!v) return reply;
      const row = UUID.test(request.params.id) ? await service.find(v.place, request.params.id, v.browser) : 'missing';
      if (typeof row === 'string') return send(reply, GONE_STATUS[row], endPage(v.view, row));
      return send(reply, 200, codePage(v.view, { id: row.id, email: row.email }));
    });

    scope.post('/portal/:slug/sign-in/:id', { schema: { hide: true, params: SlugAndId } }, async (request, reply) => {
      const v = await pages.visit(request, reply, true);
      if (!v) return reply;
      const { id } = request.params;
      const outcome = UUID.test(id) ? await service.verify(v.place, id, v.browser, sentOf(request.body).code) : missing;
      return pages.verified(request, reply, v, id, outcome);
    });

    scope.post('/portal/:slug/sign-in/:id/choose', { schema: { hide: true, params: SlugAndId } }, async (request, reply) => {
      const v = await pages.visit(request, reply, true);
      if (!v) return reply;
      const { id } = request.params;
      const outcome = UUID.test(id) ? await service.choose(v.place, id, v.browser, sentOf(request.body).customer) : missing;
      return pages.verified(request, reply, v, id, outcome);
    });
  });
}
