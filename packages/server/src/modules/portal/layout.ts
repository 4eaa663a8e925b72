import { html, type SafeHtml } from '../../page-kit/html.js';
import { hostedDocument } from '../../page-kit/document.js';
import { brandStylesheet } from '../../page-kit/brand.js';
import { ENGLISH, type Translator } from '../../page-kit/i18n.js';
import { PORTAL_CSS_VERSION } from './assets.js';

/**
 * The page around every portal state: language, viewport, and the stylesheet from /portal/assets/;
 * no script, except Stripe.js and the element's script where cards are added through Stripe (`stripe`).
 */
export function layout(title: string, prefix: string, body: SafeHtml, stripe = false, brandColor: string | null = null, lang = 'en'): string {
  return hostedDocument({ title, assetBase: `${prefix}/portal/assets`, stylesheet: `portal.${PORTAL_CSS_VERSION}.css`, brand: brandStylesheet(brandColor), stripe, body, lang });
}

const ACCESS_TEXT = {
  missing: ['access.missingTitle', 'access.missingText'],
  invalid: ['access.invalidTitle', 'access.invalidText'],
  expired: ['access.expiredTitle', 'access.expiredText'],
} as const;

/**
 * Why the portal does not open (no token, a wrong one, an expired one): nothing of any customer;
 * and the way in without a link, the sign-in by email code (decision 0038), when given.
 */
export function accessPage(prefix: string, reason: keyof typeof ACCESS_TEXT, signIn: string | null = null, tr: Translator = ENGLISH): string {
  const [title, text] = ACCESS_TEXT[reason];
  const other = signIn
    ? html`<p><a id="sign-in-by-email" class="button" href="${signIn}">${tr.t('access.signIn')}</a></p><p class="hint">${tr.t('access.signInHint')}</p>`
    : null;
  return layout(tr.t(title), prefix, html`<section class="card"><h1>${tr.t(title)}</h1><p>${tr.t(text)}</p>${other}</section>`, false, null, tr.lang);
}

/** A page with only a title and a sentence: not found, a refused form, a failure. */
export function messagePage(prefix: string, title: string, text: string, back: string | null = null, tr: Translator = ENGLISH): string {
  const link = back ? html`<p><a href="${back}">${tr.t('message.back')}</a></p>` : null;
  return layout(title, prefix, html`<section class="card"><h1>${title}</h1><p>${text}</p>${link}</section>`, false, null, tr.lang);
}
