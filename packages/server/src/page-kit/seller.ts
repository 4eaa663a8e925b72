import type { SellerOnPages } from '../modules/seller-profile/queries.js';
import { html, type SafeHtml } from './html.js';
import { ENGLISH, type Translator } from './i18n.js';

/** Who the buyer pays, above the page's first card: the seller's logo and name, linked to their site when they gave one. */
export function sellerHeader(seller: SellerOnPages): SafeHtml {
  // The name beside it says who the logo is: the image itself is decoration to a screen reader.
  const logo = seller.logoPath ? html`<img class="seller-logo" src="${seller.logoPath}" alt="">` : null;
  const name = html`${logo}<span class="seller-name">${seller.displayName}</span>`;
  const linked = seller.websiteUrl ? html`<a href="${seller.websiteUrl}" rel="noopener">${name}</a>` : name;
  return html`<header class="seller"><p class="seller-title">${linked}</p></header>`;
}

/** Below the page: the legal seller, how to reach them, and their terms (each only when the seller gave it). */
export function sellerFooter(seller: SellerOnPages, { t }: Translator = ENGLISH): SafeHtml {
  const links = [
    seller.termsUrl ? html`<a href="${seller.termsUrl}" rel="noopener">${t('seller.terms')}</a>` : null,
    seller.refundPolicyUrl ? html`<a href="${seller.refundPolicyUrl}" rel="noopener">${t('seller.refunds')}</a>` : null,
    seller.privacyUrl ? html`<a href="${seller.privacyUrl}" rel="noopener">${t('seller.privacy')}</a>` : null,
  ].filter((link): link is SafeHtml => link !== null);
  const help = seller.supportUrl
    ? html`<a href="${seller.supportUrl}" rel="noopener">${t('seller.help')}</a>`
    : seller.supportEmail
      ? html`${t('seller.questions')} <a href="mailto:${seller.supportEmail}">${seller.supportEmail}</a>`
      : null;
  return html`<footer class="seller-footer">
<p>${t('seller.soldBy', { seller: seller.legalName ?? seller.displayName })}${help ? html` · ${help}` : null}</p>
${links.length > 0 ? html`<p>${links.map((link, i) => (i === 0 ? link : html` · ${link}`))}</p>` : null}
</footer>`;
}
