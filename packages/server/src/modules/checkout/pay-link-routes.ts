import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../../db/connect.js';
import type { App } from '../../http/route-types.js';
import { apiBaseUrl } from '../../http/urls.js';
import type { Clock } from '../../lib/clock.js';
import { translator } from '../../page-kit/i18n.js';
import { negotiateLanguage } from '../../page-kit/locale.js';
import { sellerOnPages } from '../seller-profile/queries.js';
import { dueClosedPage } from './due-page.js';
import { payLinkTarget } from './due-sessions.js';
import { missingPage } from './page-closed.js';
import { securityHeaders } from '../../page-kit/headers.js';

export interface PayLinkDeps {
  db: Db;
  clock: Clock;
  publicUrl: string | null;
}

const Token = Type.Object({ token: Type.String({ maxLength: 200 }) });
const prefixOf = (request: FastifyRequest) => (request.environment === 'sandbox' ? '/sandbox' : '');

/**
 * `GET /pay/{token}/`, an unpaid invoice's payment link (decision 0035): the invoice's open
 * checkout session (made on first use), or a page saying it is paid, or that the link
 * expired (410, decision 0070), in the buyer's language (the customer's locale, else the
 * browser's). Unknown tokens, and tokens of the other environment, are not found.
 */
export function payLinkRoutes(app: App, deps: PayLinkDeps): void {
  app.get('/pay/:token', { schema: { hide: true, params: Token } }, async (request, reply) => {
    const html = (status: number, body: string) => securityHeaders(reply).code(status).type('text/html; charset=utf-8').send(body);
    const target = await payLinkTarget(deps.db, {
      token: request.params.token,
      environment: request.environment,
      apiBase: apiBaseUrl(request, deps.publicUrl),
      now: deps.clock.now(),
    });
    const acceptLanguage = request.headers['accept-language'];
    if (target.kind === 'missing') return html(404, missingPage(prefixOf(request), translator(negotiateLanguage({ acceptLanguage }))));
    if (target.kind !== 'session') {
      const seller = await sellerOnPages(deps.db, target.organizationId, target.environmentId);
      const tr = translator(negotiateLanguage({ customerLocale: target.customerLocale, acceptLanguage, sellerLanguage: seller.language }));
      return html(target.kind === 'paid' ? 200 : 410, dueClosedPage(prefixOf(request), target.kind, tr, seller));
    }
    return securityHeaders(reply).code(303).header('location', target.location).send();
  });
}
