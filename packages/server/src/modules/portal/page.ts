import { html, type SafeHtml } from '../../page-kit/html.js';
import { countryNames } from '../../lib/countries.js';
import { layout } from './layout.js';
import { sellerFooter } from '../../page-kit/seller.js';
import { hiddenFields, pageHref, type PageState } from './page-state.js';
import { creditNotesSection } from './section-credit-notes.js';
import { paymentsSection } from './section-payments.js';
import { deliverablesSection, invoicesSection, licensesSection, ordersSection } from './section-records.js';
import { subscriptionsSection } from './section-subscriptions.js';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function field(id: string, label: string, value: string, extra: SafeHtml | null = null): SafeHtml {
  return html`<label for="${id}">${label}</label><input id="${id}" name="${id}" value="${value}" maxlength="200"${extra}>`;
}

function billingSection(state: PageState): SafeHtml {
  const address = (state.customer.billing_address ?? {}) as Record<string, unknown>;
  const taxId = state.customer.tax_ids?.[0]?.value ?? '';
  const country = text(address.country);
  const countries = countryNames();
  return html`<section class="card" id="billing" aria-labelledby="billing-title"><h2 id="billing-title">Billing details</h2>
<p class="hint">Printed on your next invoices.</p>
<form method="post" action="${state.path}">${hiddenFields(state, 'billing')}
${field('line1', 'Address', text(address.line1), html` autocomplete="address-line1"`)}
${field('line2', 'Address line 2', text(address.line2), html` autocomplete="address-line2"`)}
<div class="row"><div>${field('city', 'City', text(address.city), html` autocomplete="address-level2"`)}</div><div>${field('postal_code', 'Postal code', text(address.postalCode), html` autocomplete="postal-code"`)}</div></div>
${field('state', 'State or region', text(address.state), html` autocomplete="address-level1"`)}
<label for="country">Country</label>
<select id="country" name="country" autocomplete="country"><option value="">—</option>${countries.map((c) => html`<option value="${c.code}"${c.code === country ? html` selected` : null}>${c.name}</option>`)}</select>
${field('tax_id', 'Business tax ID (VAT, GST, ABN …)', taxId, html` autocomplete="off" aria-describedby="tax-id-hint"`)}
<p class="hint" id="tax-id-hint">Leave it empty if you buy as a private person. With a VAT ID of another EU country than the seller's, no VAT is charged (reverse charge).</p>
<button type="submit">Save billing details</button>
</form></section>`;
}

/** The portal of one customer: what they have, and the forms that change it. */
export function portalPage(state: PageState): string {
  const who = state.customer.name ? `${state.customer.name} · ${state.customer.email ?? ''}` : (state.customer.email ?? '');
  const sandbox = state.sandbox ? html`<p class="banner" role="note">Sandbox: no real money moves.</p>` : null;
  const notice = state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : null;
  const problem = state.problem ? html`<div class="problem" role="alert">${state.problem}</div>` : null;
  const nav = html`<nav class="sections" aria-label="Sections"><a href="#subscriptions">Subscriptions</a><a href="#payment-methods">Payment methods</a><a href="#invoices">Invoices</a>${state.model.creditNotes.length > 0 ? html`<a href="#credit-notes">Credit notes</a>` : null}<a href="#orders">Orders</a>${state.model.licenses.length > 0 ? html`<a href="#licenses">License keys</a>` : null}<a href="#billing">Billing details</a></nav>`;
  const sellerName = state.seller?.displayName ?? state.organizationName;
  const back = state.seller?.websiteUrl ? html`<p><a href="${state.seller.websiteUrl}" rel="noopener" id="back-to-seller">Back to ${sellerName}</a></p>` : null;
  const logo = state.seller?.logoPath ? html`<img class="seller-logo" src="${state.seller.logoPath}" alt="">` : null;
  const body = html`${sandbox}<header>${logo}<p class="hint">${sellerName}</p><h1>Billing portal</h1><p>${who}</p>${back}</header>
${nav}${notice}${problem}
${subscriptionsSection(state)}${paymentsSection(state)}${invoicesSection(state)}${creditNotesSection(state)}${ordersSection(state)}${licensesSection(state)}${deliverablesSection(state)}${billingSection(state)}
<p class="hint">This page works for a limited time. <a href="${pageHref(state)}">Reload</a></p>
${state.seller ? sellerFooter(state.seller) : null}`;
  return layout(`Billing portal · ${sellerName}`, state.prefix, body, portalUsesStripeJs(state), state.seller?.brandColor ?? null);
}

/** Whether the page loads Stripe.js (and so needs Stripe's sources in its policy). */
export function portalUsesStripeJs(state: Pick<PageState, 'stripe'>): boolean {
  return state.stripe?.publishableKey != null;
}
