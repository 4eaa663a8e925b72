import type { SellerOnPages } from '../modules/seller-profile/queries.js';
import { html, type SafeHtml } from './html.js';

/** Who the buyer pays, above the page's first card: the seller's name, linked to their site when they gave one. */
export function sellerHeader(seller: SellerOnPages): SafeHtml {
  const name = seller.websiteUrl ? html`<a href="${seller.websiteUrl}" rel="noopener">${seller.displayName}</a>` : seller.displayName;
  return html`<header class="seller"><p class="seller-name">${name}</p></header>`;
}

/** Below the page: the legal seller, how to reach them, and their terms (each only when the seller gave it). */
export function sellerFooter(seller: SellerOnPages): SafeHtml {
  const links = [
    seller.termsUrl ? html`<a href="${seller.termsUrl}" rel="noopener">Terms of sale</a>` : null,
    seller.refundPolicyUrl ? html`<a href="${seller.refundPolicyUrl}" rel="noopener">Refund policy</a>` : null,
    seller.privacyUrl ? html`<a href="${seller.privacyUrl}" rel="noopener">Privacy policy</a>` : null,
  ].filter((link): link is SafeHtml => link !== null);
  const help = seller.supportUrl
    ? html`<a href="${seller.supportUrl}" rel="noopener">Get help</a>`
    : seller.supportEmail
      ? html`Questions? <a href="mailto:${seller.supportEmail}">${seller.supportEmail}</a>`
      : null;
  return html`<footer class="seller-footer">
<p>Sold by ${seller.legalName ?? seller.displayName}${help ? html` · ${help}` : null}</p>
${links.length > 0 ? html`<p>${links.map((link, i) => (i === 0 ? link : html` · ${link}`))}</p>` : null}
</footer>`;
}
