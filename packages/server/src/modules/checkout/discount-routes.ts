import { Type } from 'typebox';
import type { App } from '../../http/route-types.js';
import type { DiscountQuotes } from './discount-quote.js';

const Id = Type.Object({ id: Type.String({ maxLength: 200 }) });

/**
 * The discount form's fields (csrf_token, discount_code, plan, period, country, business, tax_id, qty_*) as
 * [name, value] pairs, as the page's script reads them: pairs, because the API's JSON
 * parser renames object keys to camelCase, and these are the form's own names.
 */
const Body = Type.Object(
  { fields: Type.Array(Type.Tuple([Type.String({ maxLength: 120 }), Type.String({ maxLength: 200 })]), { maxItems: 60 }) },
  { additionalProperties: false },
);

/**
 * POST {page}/discount/: the discount field without a reload (decision 0034). A part of the
 * hosted page, not of API v1 (so not in the OpenAPI document): no key, the page's CSRF token.
 * JSON only: a cross-site form cannot post it.
 */
export function discountQuoteRoutes(app: App, quotes: DiscountQuotes): void {
  app.post('/checkout/:id/discount', { schema: { hide: true, params: Id, body: Body } }, async (request, reply) => {
    const answer = await quotes.apply(request.params.id, request.environment, Object.fromEntries(request.body.fields), request.ip, request.headers['accept-language']);
    return reply.header('cache-control', 'no-store').header('x-content-type-options', 'nosniff').send(answer);
  });
}
