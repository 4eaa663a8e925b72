import { html, type SafeHtml } from '../../page-kit/html.js';
import type { MessageKey } from '../../page-kit/i18n.js';
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
  const { t } = state.t;
  const address = (state.customer.billing_address ?? {}) as Record<string, unknown>;
  const taxId = state.customer.tax_ids?.[0]?.value ?? '';
  const country = text(address.country);
  const countries = countryNames(state.t.lang);
  return html`<section class="card" id="billing" aria-labelledby="billing-title"><h2 id="billing-title">${t('portal.billing')}</h2>
<p class="hint">${t('billing.hint')}</p>
<form method="post" action="${state.path}">${hiddenFields(state, 'billing')}
${field('line1', t('billing.line1'), text(address.line1), html` autocomplete="address-line1"`)}
${field('line2', t('billing.line2'), text(address.line2), html` autocomplete="address-line2"`)}
<div class="row"><div>${field('city', t('billing.city'), text(address.city), html` autocomplete="address-level2"`)}</div><div>${field('postal_code', t('billing.postalCode'), text(address.postalCode), html` autocomplete="postal-code"`)}</div></div>
${field('state', t('billing.state'), text(address.state), html` autocomplete="address-level1"`)}
<label for="country">${t('billing.country')}</label>
<select id="country" name="country" autocomplete="country"><option value="">—</option>${countries.map((c) => html`<option value="${c.code}"${c.code === country ? html` selected` : null}>${c.name}</option>`)}</select>
${field('tax_id', t('billing.taxId'), taxId, html` autocomplete="off" aria-describedby="tax-id-hint"`)}
<p class="hint" id="tax-id-hint">${t('billing.taxIdHint')}</p>
<button type="submit">${t('billing.save')}</button>
</form></section>`;
}

function nav(state: PageState): SafeHtml {
  const { t } = state.t;
  const link = (anchor: string, key: MessageKey) => html`<a href="#${anchor}">${t(key)}</a>`;
  return html`<nav class="sections" aria-label="${t('portal.sections')}">${link('subscriptions', 'portal.subscriptions')}${link('payment-methods', 'portal.paymentMethods')}${link('invoices', 'portal.invoices')}${state.model.creditNotes.length > 0 ? link('credit-notes', 'portal.creditNotes') : null}${link('orders', 'portal.orders')}${state.model.licenses.length > 0 ? link('licenses', 'portal.licenses') : null}${link('billing', 'portal.billing')}</nav>`;
}

/** The portal of one customer: what they have, and the forms that change it, in the customer's language. */
export function portalPage(state: PageState): string {
  const { t } = state.t;
  const email = state.customer.email ?? '';
  const who = state.customer.name ? t('portal.nameAndEmail', { name: state.customer.name, email }) : email;
  const sandbox = state.sandbox ? html`<p class="banner" role="note">${t('portal.sandbox')}</p>` : null;
  const notice = state.notice ? html`<p class="notice" role="status">${t(`done.${state.notice}` as MessageKey)}</p>` : null;
  const problem = state.problem ? html`<div class="problem" role="alert">${state.t.problem(state.problem)}</div>` : null;
  const sellerName = state.seller?.displayName ?? state.organizationName;
  const back = state.seller?.websiteUrl ? html`<p><a href="${state.seller.websiteUrl}" rel="noopener" id="back-to-seller">${t('portal.back', { seller: sellerName })}</a></p>` : null;
  const logo = state.seller?.logoPath ? html`<img class="seller-logo" src="${state.seller.logoPath}" alt="">` : null;
  const body = html`${sandbox}<header>${logo}<p class="hint">${sellerName}</p><h1>${t('portal.title')}</h1><p>${who}</p>${back}</header>
${nav(state)}${notice}${problem}
${subscriptionsSection(state)}${paymentsSection(state)}${invoicesSection(state)}${creditNotesSection(state)}${ordersSection(state)}${licensesSection(state)}${deliverablesSection(state)}${billingSection(state)}
<p class="hint">${t('portal.limited')} <a href="${pageHref(state)}">${t('portal.reload')}</a></p>
${state.seller ? sellerFooter(state.seller, state.t) : null}`;
  return layout(t('portal.pageTitle', { seller: sellerName }), state.prefix, body, portalUsesStripeJs(state), state.seller?.brandColor ?? null, state.t.lang);
}

/** Whether the page loads Stripe.js (and so needs Stripe's sources in its policy). */
export function portalUsesStripeJs(state: Pick<PageState, 'stripe'>): boolean {
  return state.stripe?.publishableKey != null;
}
