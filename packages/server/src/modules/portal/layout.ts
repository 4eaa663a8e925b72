import { html, type SafeHtml } from '../../page-kit/html.js';
import { hostedDocument } from '../../page-kit/document.js';
import { brandStylesheet } from '../../page-kit/brand.js';
import { PORTAL_CSS_VERSION } from './assets.js';

/**
 * The page around every portal state: language, viewport, and the stylesheet from /portal/assets/;
 * no script, except Stripe.js and the element's script where cards are added through Stripe (`stripe`).
 */
export function layout(title: string, prefix: string, body: SafeHtml, stripe = false, brandColor: string | null = null): string {
  return hostedDocument({ title, assetBase: `${prefix}/portal/assets`, stylesheet: `portal.${PORTAL_CSS_VERSION}.css`, brand: brandStylesheet(brandColor), stripe, body });
}

const ACCESS_TEXT = {
  missing: ['This page needs a link', 'Open the billing portal from the link the seller gave you.'],
  invalid: ['This link is not valid', 'The link is incomplete or no longer belongs to an account. Ask the seller for a new link to the billing portal.'],
  expired: ['This link has expired', 'Links to the billing portal work for a limited time. Go back to the seller and open the portal again.'],
} as const;

/**
 * Why the portal does not open (no token, a wrong one, an expired one): nothing of any customer;
 * and the way in without a link, the sign-in by email code (decision 0038), when given.
 */
export function accessPage(prefix: string, reason: keyof typeof ACCESS_TEXT, signIn: string | null = null): string {
  const [title, text] = ACCESS_TEXT[reason];
  const other = signIn
    ? html`<p><a id="sign-in-by-email" class="button" href="${signIn}">Sign in with your email</a></p><p class="hint">We send a one-time code to the email you bought with.</p>`
    : null;
  return layout(title, prefix, html`<section class="card"><h1>${title}</h1><p>${text}</p>${other}</section>`);
}

/** A page with only a title and a sentence: not found, a refused form, a failure. */
export function messagePage(prefix: string, title: string, text: string, back: string | null = null): string {
  const link = back ? html`<p><a href="${back}">Back to the billing portal</a></p>` : null;
  return layout(title, prefix, html`<section class="card"><h1>${title}</h1><p>${text}</p>${link}</section>`);
}
