import { html, type SafeHtml } from '../../page-kit/html.js';
import type { BuyerProblem, Translator } from '../../page-kit/i18n.js';
import type { CustomerRow } from '../customers/queries.js';
import type { SellerOnPages } from '../seller-profile/queries.js';
import type { ChangePreview } from '../subscriptions/self-service.js';
import type { PortalModel } from './reader.js';

/** A change of plan the customer asked to see before confirming it. */
export interface ChangeAsked {
  subscriptionId: string;
  plan: string;
  period: string;
  preview: ChangePreview | null;
  problem: BuyerProblem | null;
}

/** Everything one rendering of the portal needs. */
export interface PageState {
  prefix: string;
  /** The page's path, e.g. /sandbox/portal/acme/ (forms post to it). */
  path: string;
  csrf: string;
  /** This rendering's submission id: a form sent twice is acted on once. */
  nonce: string;
  sandbox: boolean;
  /** Cards are added with Stripe's Payment Element (its publishable key; null: the seller has not given it); null: typed sandbox test cards. */
  stripe: { publishableKey: string | null } | null;
  organizationName: string;
  /** Who sells (the seller profile): named at the top, with a way back to their site and their terms below. */
  seller: SellerOnPages | null;
  customer: CustomerRow;
  model: PortalModel;
  /** The action that just succeeded (`?done=`), said as `done.<action>` in the customer's words. */
  notice: string | null;
  problem: BuyerProblem | null;
  change: ChangeAsked | null;
  /** The page's language: the customer's locale, else the browser's, else the seller's, else English. */
  t: Translator;
}

/**
 * The page's own URL with more query parameters, for links and redirects. No token: after
 * the first visit the session travels in a cookie (token-cookie.ts), never in a URL.
 */
export function pageHref(state: Pick<PageState, 'path'>, extra: Record<string, string> = {}, anchor = ''): string {
  const query = new URLSearchParams(extra).toString();
  return `${state.path}${query ? `?${query}` : ''}${anchor ? `#${anchor}` : ''}`;
}

/** The hidden fields every portal form carries: the session, its CSRF token, the submission id and the action. */
export function hiddenFields(state: PageState, action: string, fields: Record<string, string> = {}): SafeHtml {
  const all = { csrf_token: state.csrf, nonce: state.nonce, action, ...fields };
  return html`${Object.entries(all).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`;
}

/** A form of one button (set default, remove, resume, deactivate, pay). */
export function buttonForm(state: PageState, action: string, fields: Record<string, string>, label: string, secondary = true): SafeHtml {
  return html`<form method="post" action="${state.path}">${hiddenFields(state, action, fields)}<button type="submit" class="inline${secondary ? ' secondary' : ''}">${label}</button></form>`;
}

/** A day in the page's language ("3 Dec 2026", "03.12.2026"); a dash when there is none. */
export const dateText = (state: Pick<PageState, 't'>, at: string | Date | null | undefined): string => (at ? state.t.date(at) : '—');

/** A refusal as the customer reads it: its catalogue message when it has one, else its own words. */
export function problemOf(error: { detail: string; code: string; key?: string; values?: Record<string, string | number> }): BuyerProblem {
  return { field: null, message: error.detail, ...(error.key ? { key: error.key, values: error.values } : {}) };
}
