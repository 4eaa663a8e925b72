import { html, type SafeHtml } from '../../page-kit/html.js';
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
  problem: string | null;
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
  notice: string | null;
  problem: string | null;
  change: ChangeAsked | null;
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

export const dateText = (at: string | Date | null | undefined): string => {
  if (!at) return '—';
  const date = typeof at === 'string' ? new Date(at) : at;
  return Number.isNaN(date.getTime()) ? '—' : date.toISOString().slice(0, 10);
};
